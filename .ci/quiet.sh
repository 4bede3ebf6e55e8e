# Sourced by .ci/test and .ci/tsan: builds and runs the tests with a short log on the screen
# and the whole output in files, and keeps the tests away from the user's own data.

# trellis_build LOG ARGS…: `swift build --build-tests ARGS…`; the screen shows one line per
# Trellis module compiled and each diagnostic once; the whole output goes to LOG. On failure
# prints the end of LOG and returns the build's status.
trellis_build() {
  local log=$1; shift
  echo "trellis: building the tests (log: $log)"
  set +e
  swift build --build-tests "$@" 2>&1 | tee "$log" | awk '
    / Compiling [Tt]rellis[A-Za-z-]* / { if (!($3 in seen)) { seen[$3] = 1; print "  compiling " $3 } }
    /(error|warning): / && !/prohibited flag/ && !($0 in said) { said[$0] = 1; print }'
  local status=${PIPESTATUS[0]}
  set -e
  if [ "$status" -ne 0 ]; then
    echo "trellis: the build failed (exit $status); the end of $log:" >&2
    tail -n 40 "$log" >&2
  fi
  return "$status"
}

# The tests and every `trellis` they start keep their data, settings and caches in a folder
# of their own, removed at exit, never in the user's (~/.local/share/trellis holds real notes).
trellis_private_home() {
  trellis_test_home=$(mktemp -d -t trellis-test-home.XXXXXX)
  trap trellis_remove_private_home EXIT
  export XDG_DATA_HOME="$trellis_test_home/data" XDG_CONFIG_HOME="$trellis_test_home/config"
  export XDG_CACHE_HOME="$trellis_test_home/cache"
  mkdir -p "$XDG_DATA_HOME" "$XDG_CONFIG_HOME" "$XDG_CACHE_HOME"
  # Trellis's own loggers, in the tests and in the `trellis` processes they start.
  export TRELLIS_LOG_LEVEL="${TRELLIS_LOG_LEVEL:-warning}"
}

# Removes the private home, and the lock files SwiftPM left beside it and beside the tests'
# own folders that build a package (TestFolder's trellis-tests-*, the README walk-through's
# trellis-readme-*): SwiftPM puts them in the temporary folder, named after the locked path
# ("_tmp_trellis-test-home.XXXXXX_config_swiftpm.lock").
trellis_remove_private_home() {
  local temporary prefix
  temporary=$(dirname "$trellis_test_home")
  prefix="$temporary/${temporary//\//_}"
  rm -rf "$trellis_test_home"
  rm -f "$temporary/${trellis_test_home//\//_}"_*.lock "$prefix"_trellis-tests-*.lock "$prefix"_trellis-readme-*.lock
}

# trellis_run_tests NAME LOG COMMAND…: runs the test command; the screen shows each failure
# with its message as it happens, and the totals; LOG holds all of it (XCTest's every case, the
# D-Bus session). What the tests printed or logged at warning or above (most of it provoked on
# purpose: hostile plugins, damaged files) goes to LOG.notes, and to the screen only when a test
# failed, before the summary naming the failed tests. Returns non-zero when the command failed
# or any test did.
trellis_run_tests() {
  local name=$1 log=$2; shift 2
  # Swift Testing starts every test at once unless told otherwise: hundreds of tests on two
  # cores, each main-actor step and pool task waiting behind all the others (a refused note's
  # event took 30 s to arrive under ThreadSanitizer). Four test cases per core at a time ends
  # that, and the run is no slower (.ci/tsan: 139 s against 177 s; .ci/test's Swift Testing
  # part: 75 s against 84 s). Swift 6.3's testing library reads it; others ignore it.
  export SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH="${SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH:-$(( 4 * $(nproc) ))}"
  echo "$name: running the tests (log: $log)"
  local started=$SECONDS status failed
  set +e
  local notes="$log.notes"
  "$@" 2>&1 | tee "$log" | awk -v notes="$notes" '
    BEGIN { printf "" > notes }
    # XCTest'"'"'s totals, unless it had no test to run (the ThreadSanitizer lane has none).
    /^Test Suite .(All tests|Selected tests). (passed|failed) at / { total = $0; next }
    total != "" { if ($0 !~ /Executed 0 tests, with 0 failures/) { print total; print }; total = ""; next }
    /^Test (Suite|Case) .* started at / { next }
    /^Test Case .* passed \(/ { next }
    /^Test Suite .* (passed|failed) at / { next }
    /^\t Executed [0-9]+ tests?, / { next }
    /^◇ Test run started\.$/ || /^↳ (Testing Library Version|Target Platform): / { next }
    /^dbus-daemon\[[0-9]+\]: / || /^SpiRegistry daemon is running/ { next }
    /^warning: prohibited flag\(s\)/ || /^$/ { next }
    /^(✘|↳) / || /^✔ Test run with / || /^Test Case .* failed \(/ || /: error: / || /^error: / { print; fflush(); next }
    { print > notes }'
  status=${PIPESTATUS[0]}
  set -e
  # XCTest's failed cases, Swift Testing's tests with issues, and test processes that crashed.
  failed=$(grep -E "^Test Case '.*' failed \(|^✘ Test .* recorded an issue at |^error: Process .* exited " "$log" \
    | sed -E "s/^Test Case '(.*)' failed.*/\1/; s/^✘ Test (.*) recorded an issue at ([^:]*:[0-9]+).*/\1 (\2)/;
              s/^error: Process '[^ ]* ([^']*)' exited with (.*)/\1 (the test process exited with \2)/" | sort -u || true)
  local elapsed=$((SECONDS - started))
  if [ "$status" -ne 0 ] || [ -n "$failed" ]; then
    if [ -s "$notes" ]; then
      echo "$name: what the tests printed or logged at warning or above:" >&2
      sed 's/^/  | /' "$notes" >&2
    fi
    echo "$name: TESTS FAILED (exit $status) after ${elapsed} s; full log: $log" >&2
    if [ -n "$failed" ]; then
      echo "$failed" | sed 's/^/  failed: /' >&2
    fi
    return $(( status == 0 ? 1 : status ))
  fi
  echo "$name: all tests passed in ${elapsed} s (full log: $log)"
}
