# Sourced by the build scripts: cmake_generator DIR sets the array `generator`
# to -G Ninja for a new build directory. Ninja compiles a target's sources as
# soon as the headers they need exist (make waits for every library the
# target links), so both cores stay busy: the AddressSanitizer lane's build
# took 199 s instead of 275 s (journal/2026-11-27-ci-time.md). A directory
# configured before keeps its generator (cmake refuses to switch).
cmake_generator() {
  generator=()
  [[ -f "$1/CMakeCache.txt" ]] || generator=(-G Ninja)
}
