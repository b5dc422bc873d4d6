# Sourced by scripts/bootstrap, scripts/test and scripts/run-example (after `repo` is set): compile
# through ccache where it is installed (set-up installs it; KBOOST_CCACHE=0 turns it off), so a
# second clone of the same commit on the same machine recompiles only what differs.
#   ccache_launcher      cmake arguments for the launcher (empty without ccache)
#   ccache_identity W    exports CCACHE_COMPILERCHECK for the compiler wrapper W (Kokkos'
#                        nvcc_wrapper, a script set-up copies into each clone's .deps): its content
#                        and the versions of the compilers it calls stand for it, not its file time,
#                        which differs in every clone and would miss every unit
ccache_launcher=()
if [ "${KBOOST_CCACHE:-1}" = 1 ] && command -v ccache >/dev/null; then
  ccache_launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  # paths under the clone hash as relative ones
  export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$repo} CCACHE_NOHASHDIR=${CCACHE_NOHASHDIR:-1}
fi
ccache_identity() {
  [ ${#ccache_launcher[@]} -gt 0 ] || return 0
  local id
  id=$( { cat "$1"; echo "${NVCC_WRAPPER_DEFAULT_COMPILER:-}"; nvcc --version; g++ --version; } 2>&1 | sha256sum)
  export CCACHE_COMPILERCHECK="string:${id%% *}"
}
