!> kboost Fortran module: the C ABI (kboost_c.h) through iso_c_binding, with Fortran arrays in
!> their natural (column-major) order: features x(n_rows, n_features), outputs out(n_rows, n_outputs).
!> Every procedure takes an optional `stat` (0 = success); without it an error stops the program with
!> kboost's message. kboost_error_message() returns the last error of the calling thread.
!>
!> Prediction runs on the calling thread and is bit-identical to `kboost predict` and to upstream
!> XGBoost's CPU predict; one model may be used by several threads (e.g. OpenMP) at once.
module kboost
  use, intrinsic :: iso_c_binding, only: c_ptr, c_null_ptr, c_int, c_int64_t, c_float, c_char, &
                                         c_null_char, c_associated, c_f_pointer, c_size_t
  implicit none
  private

  public :: kboost_model, kboost_initialize, kboost_finalize, kboost_load, kboost_free, kboost_save
  public :: kboost_num_features, kboost_num_outputs, kboost_predict, kboost_train
  public :: kboost_error_message, kboost_version_string

  !> An opaque model handle; free it with kboost_free.
  type :: kboost_model
    type(c_ptr) :: handle = c_null_ptr
  end type kboost_model

  integer(c_int), parameter :: row_major = 0, col_major = 1
  integer(c_int), parameter :: output_margin = 1, output_col_major = 2

  interface
    integer(c_int) function c_initialize() bind(C, name="kboost_initialize")
      import :: c_int
    end function
    integer(c_int) function c_finalize() bind(C, name="kboost_finalize")
      import :: c_int
    end function
    type(c_ptr) function c_last_error() bind(C, name="kboost_last_error")
      import :: c_ptr
    end function
    type(c_ptr) function c_version() bind(C, name="kboost_version")
      import :: c_ptr
    end function
    integer(c_int) function c_model_load(path, out) bind(C, name="kboost_model_load")
      import :: c_int, c_char, c_ptr
      character(kind=c_char), intent(in) :: path(*)
      type(c_ptr), intent(out) :: out
    end function
    subroutine c_model_free(model) bind(C, name="kboost_model_free")
      import :: c_ptr
      type(c_ptr), value :: model
    end subroutine
    integer(c_int) function c_model_save(model, path) bind(C, name="kboost_model_save")
      import :: c_int, c_char, c_ptr
      type(c_ptr), value :: model
      character(kind=c_char), intent(in) :: path(*)
    end function
    integer(c_int) function c_num_features(model, out) bind(C, name="kboost_model_num_features")
      import :: c_int, c_int64_t, c_ptr
      type(c_ptr), value :: model
      integer(c_int64_t), intent(out) :: out
    end function
    integer(c_int) function c_num_outputs_for(model, flags, out) bind(C, name="kboost_model_num_outputs_for")
      import :: c_int, c_int64_t, c_ptr
      type(c_ptr), value :: model
      integer(c_int), value :: flags
      integer(c_int64_t), intent(out) :: out
    end function
    integer(c_int) function c_predict(model, x, n_rows, n_features, layout, flags, out) &
        bind(C, name="kboost_predict")
      import :: c_int, c_int64_t, c_float, c_ptr
      type(c_ptr), value :: model
      real(c_float), intent(in) :: x(*)
      integer(c_int64_t), value :: n_rows, n_features
      integer(c_int), value :: layout, flags
      real(c_float), intent(out) :: out(*)
    end function
    integer(c_int) function c_train(x, n_rows, n_features, layout, labels, weights, keys, values, &
                                    n_params, out) bind(C, name="kboost_train")
      import :: c_int, c_int64_t, c_float, c_ptr
      real(c_float), intent(in) :: x(*)
      integer(c_int64_t), value :: n_rows, n_features
      integer(c_int), value :: layout
      real(c_float), intent(in) :: labels(*)
      type(c_ptr), value :: weights
      type(c_ptr), intent(in) :: keys(*), values(*)
      integer(c_int64_t), value :: n_params
      type(c_ptr), intent(out) :: out
    end function
    pure integer(c_size_t) function c_strlen(s) bind(C, name="strlen")
      import :: c_size_t, c_ptr
      type(c_ptr), value :: s
    end function
  end interface

contains

  !> A C string (NUL-terminated) as a Fortran string.
  function from_c_string(p) result(s)
    type(c_ptr), intent(in) :: p
    character(:), allocatable :: s
    character(kind=c_char), pointer :: chars(:)
    integer :: i, n
    if (.not. c_associated(p)) then
      s = ''
      return
    end if
    n = int(c_strlen(p))
    call c_f_pointer(p, chars, [n])
    allocate (character(n) :: s)
    do i = 1, n
      s(i:i) = chars(i)
    end do
  end function

  !> The calling thread's last kboost error message.
  function kboost_error_message() result(msg)
    character(:), allocatable :: msg
    msg = from_c_string(c_last_error())
  end function

  !> kboost's version string.
  function kboost_version_string() result(v)
    character(:), allocatable :: v
    v = from_c_string(c_version())
  end function

  !> Sets `stat` to `rc`, or stops with the error message when the caller gave no `stat`.
  subroutine check(rc, stat)
    integer(c_int), intent(in) :: rc
    integer, intent(out), optional :: stat
    if (present(stat)) then
      stat = int(rc)
    else if (rc /= 0) then
      error stop 'kboost: ' // kboost_error_message()
    end if
  end subroutine

  !> Initialises Kokkos unless the program already has.
  subroutine kboost_initialize(stat)
    integer, intent(out), optional :: stat
    call check(c_initialize(), stat)
  end subroutine

  !> Finalises Kokkos if kboost_initialize initialised it.
  subroutine kboost_finalize(stat)
    integer, intent(out), optional :: stat
    call check(c_finalize(), stat)
  end subroutine

  !> Loads an XGBoost JSON or UBJSON model file.
  subroutine kboost_load(model, path, stat)
    type(kboost_model), intent(out) :: model
    character(*), intent(in) :: path
    integer, intent(out), optional :: stat
    call check(c_model_load(trim(path) // c_null_char, model%handle), stat)
  end subroutine

  !> Frees a model (a model never loaded is fine).
  subroutine kboost_free(model)
    type(kboost_model), intent(inout) :: model
    call c_model_free(model%handle)
    model%handle = c_null_ptr
  end subroutine

  !> Saves as XGBoost JSON (UBJSON for *.ubj), atomically.
  subroutine kboost_save(model, path, stat)
    type(kboost_model), intent(in) :: model
    character(*), intent(in) :: path
    integer, intent(out), optional :: stat
    call check(c_model_save(model%handle, trim(path) // c_null_char), stat)
  end subroutine

  !> Number of features the model expects.
  integer function kboost_num_features(model, stat)
    type(kboost_model), intent(in) :: model
    integer, intent(out), optional :: stat
    integer(c_int64_t) :: n
    n = 0
    call check(c_num_features(model%handle, n), stat)
    kboost_num_features = int(n)
  end function

  !> Output columns per row of kboost_predict (margin = .true.: margins, else transformed outputs).
  integer function kboost_num_outputs(model, margin, stat)
    type(kboost_model), intent(in) :: model
    logical, intent(in), optional :: margin
    integer, intent(out), optional :: stat
    integer(c_int64_t) :: n
    integer(c_int) :: flags
    flags = 0
    if (present(margin)) then
      if (margin) flags = output_margin
    end if
    n = 0
    call check(c_num_outputs_for(model%handle, flags, n), stat)
    kboost_num_outputs = int(n)
  end function

  !> Predicts x(n_rows, n_features) (NaN = missing) into out(n_rows, kboost_num_outputs(model, margin)).
  subroutine kboost_predict(model, x, out, margin, stat)
    type(kboost_model), intent(in) :: model
    real(c_float), intent(in), contiguous :: x(:, :)
    real(c_float), intent(out), contiguous :: out(:, :)
    logical, intent(in), optional :: margin
    integer, intent(out), optional :: stat
    integer(c_int) :: flags
    flags = output_col_major
    if (present(margin)) then
      if (margin) flags = ior(flags, output_margin)
    end if
    if (size(out, 1) /= size(x, 1)) then
      if (present(stat)) then
        stat = -1
        return
      end if
      error stop 'kboost_predict: out must have as many rows as x'
    end if
    call check(c_predict(model%handle, x, int(size(x, 1), c_int64_t), int(size(x, 2), c_int64_t), col_major, &
                         flags, out), stat)
  end subroutine

  !> Trains on x(n_rows, n_features) with labels(n_rows) and parameters as XGBoost names and values,
  !> e.g. keys = [character(16) :: 'objective', 'max_depth'], values = [character(16) :: 'binary:logistic', '4'].
  subroutine kboost_train(model, x, labels, keys, values, stat)
    type(kboost_model), intent(out) :: model
    real(c_float), intent(in), contiguous :: x(:, :)
    real(c_float), intent(in), contiguous :: labels(:)
    character(*), intent(in) :: keys(:), values(:)
    integer, intent(out), optional :: stat
    character(kind=c_char, len=:), allocatable, target :: kbuf(:), vbuf(:)
    type(c_ptr), allocatable :: kptr(:), vptr(:)
    integer :: i, n
    n = size(keys)
    allocate (character(len(keys) + 1) :: kbuf(n))
    allocate (character(len(values) + 1) :: vbuf(n))
    allocate (kptr(n), vptr(n))
    do i = 1, n
      kbuf(i) = trim(keys(i)) // c_null_char
      vbuf(i) = trim(values(i)) // c_null_char
      kptr(i) = c_loc_string(kbuf(i))
      vptr(i) = c_loc_string(vbuf(i))
    end do
    call check(c_train(x, int(size(x, 1), c_int64_t), int(size(x, 2), c_int64_t), col_major, labels, c_null_ptr, &
                       kptr, vptr, int(n, c_int64_t), model%handle), stat)
  end subroutine

  !> Address of a character scalar (iso_c_binding's c_loc needs a target of length-1 characters in
  !> older compilers; this keeps the cast in one place).
  function c_loc_string(s) result(p)
    use, intrinsic :: iso_c_binding, only: c_loc
    character(kind=c_char, len=*), intent(in), target :: s
    type(c_ptr) :: p
    p = c_loc(s)
  end function

end module kboost
