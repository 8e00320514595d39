#!/usr/bin/env bash
# AddressSanitizer + UndefinedBehaviorSanitizer pass over the `unit` label
# (every module's tests, the CLI's included). UBSan is made fatal, so an
# overflow, a misaligned access or a bad shift fails the test that hit it
# instead of printing a line nobody reads. OpenMP's runtime is not
# instrumented; ASan needs no help with it (unlike TSan, see tsan.sh).
# Built with clang 14, as the other sanitizer lanes: it compiles the
# instrumented code in about half of g++'s time. The backends are compiled
# for one scheme of each kind -- lockless (xor), per thread (perthread),
# locked (spinlock) -- and the test-only faulty table (CMake XQLAB_SCHEMES,
# DESIGN.md "Grow by addition"): the search's code is the same template for
# every table, the tables' own code is tested for every scheme whatever the
# list (hashing tests, the stress tool), and the plain test lane runs every
# pair. A test that needs another scheme says so and shows as skipped.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
dir="${1:-$root/build-asan}"
"$root/scripts/deps.sh" sanitize
source "$root/scripts/generator.sh"
cmake_generator "$dir"
CXX=clang++-14 cmake "${generator[@]}" -S "$root" -B "$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DXQLAB_SANITIZE=address -DXQLAB_NATIVE=OFF -DXQLAB_LTO=OFF -DCMAKE_UNITY_BUILD=ON -DXQLAB_TEST_SCHEMES=ON \
  "-DXQLAB_SCHEMES=${XQLAB_ASAN_SCHEMES:-xor;perthread;spinlock}" >/dev/null
# The unit label needs the test binaries and the xqlab binary (the CLI tests
# run it); the benchmarks are not tests and are not built here.
cmake --build "$dir" -j"$(nproc)" --target xqlab_tests
export ASAN_OPTIONS="detect_leaks=1 abort_on_error=1 strict_string_checks=1 detect_stack_use_after_return=1"
export UBSAN_OPTIONS="halt_on_error=1 print_stacktrace=1"
export LSAN_OPTIONS="suppressions=$root/scripts/lsan.supp"
"$root/scripts/ctest.sh" "$dir" -L unit -j"$(nproc)" --timeout 900
# Where the lane's time goes (it is CI's longest lane): the slowest tests.
"$root/scripts/slowest.sh" "$dir" 15 || true
