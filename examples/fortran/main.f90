!> Loads an XGBoost model, reads a dense CSV (n_rows lines of n_features values, nan = missing) into
!> x(n_rows, n_features), predicts through the kboost module and prints one row per line with 9
!> significant digits (exact float32).
!>   usage: predict_f <model.json|ubj> <x.csv> <n_rows>
program predict_f
  use, intrinsic :: iso_c_binding, only: c_float
  use kboost
  implicit none
  type(kboost_model) :: model
  character(1024) :: model_path, csv_path, arg
  real(c_float), allocatable :: x(:, :), out(:, :)
  integer :: n_rows, n_features, n_outputs, i, unit

  call get_command_argument(1, model_path)
  call get_command_argument(2, csv_path)
  call get_command_argument(3, arg)
  read (arg, *) n_rows

  call kboost_initialize()
  call kboost_load(model, trim(model_path))
  n_features = kboost_num_features(model)
  n_outputs = kboost_num_outputs(model)

  allocate (x(n_rows, n_features), out(n_rows, n_outputs))
  open (newunit=unit, file=trim(csv_path), status='old', action='read')
  do i = 1, n_rows
    read (unit, *) x(i, :)
  end do
  close (unit)

  call kboost_predict(model, x, out)
  do i = 1, n_rows
    write (*, '(*(g0.9, :, ","))') out(i, :)
  end do
  call kboost_free(model)
  deallocate (x, out)
  call kboost_finalize()
end program
