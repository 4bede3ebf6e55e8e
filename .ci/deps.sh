# Sourced by .ci/launch and .ci/test: makes sure the system packages Trellis needs are here.
# As root it installs what is missing with apt-get; otherwise it prints the exact command to
# run and stops.

trellis_require_packages() {
  local missing=()
  local pkg
  for pkg in "$@"; do
    if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
      missing+=("$pkg")
    fi
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  if [ "$(id -u)" -eq 0 ]; then
    # apt-get's hundreds of lines go to a log; the screen shows what is installed, and the
    # end of the log if it fails.
    mkdir -p .build
    local log=.build/apt-get.log
    echo "trellis: installing ${missing[*]} (log: $log)" >&2
    export DEBIAN_FRONTEND=noninteractive
    { apt-get update -q && apt-get install -y -q --no-install-recommends "${missing[@]}"; } >"$log" 2>&1 || {
      echo "trellis: apt-get install failed for: ${missing[*]}; the end of $log:" >&2
      tail -n 20 "$log" >&2
      return 1
    }
  else
    echo "trellis: missing system packages. Run:" >&2
    echo "  sudo apt-get install -y ${missing[*]}" >&2
    return 1
  fi
}

trellis_require_swift() {
  if ! command -v swift >/dev/null 2>&1; then
    if [ -x /opt/swift/usr/bin/swift ]; then
      export PATH="/opt/swift/usr/bin:$PATH"
    else
      echo "trellis: no Swift toolchain on PATH (Swift 6.0 or newer is needed: https://swift.org/install)" >&2
      return 1
    fi
  fi
}

# The REST servers not written for Trellis that the sync tests run on 127.0.0.1, from PyPI:
# json-server-py, and Django with Django REST Framework (a ModelViewSet the tests start). Installed
# with pip when one of them does not import: for the user when not root; as root into the system
# Python, past Debian's "externally managed" refusal only if pip gives it. Without pip, prints the
# command that installs them and stops.
TRELLIS_TEST_PYPI_PACKAGES=(json-server-py django djangorestframework)
trellis_require_test_servers() {
  python3 -c 'import json_server, django, rest_framework' 2>/dev/null && return 0
  if ! command -v python3 >/dev/null 2>&1 || ! python3 -m pip --version >/dev/null 2>&1; then
    if [ "$(id -u)" -eq 0 ]; then
      trellis_require_packages python3 python3-pip || return 1
    else
      echo "trellis: the sync tests need pip to install ${TRELLIS_TEST_PYPI_PACKAGES[*]}. Run:" >&2
      echo "  sudo apt-get install -y python3-pip && python3 -m pip install --user ${TRELLIS_TEST_PYPI_PACKAGES[*]}" >&2
      return 1
    fi
  fi
  local pip=(python3 -m pip install --quiet --disable-pip-version-check)
  [ "$(id -u)" -eq 0 ] || pip+=(--user)
  echo "trellis: installing ${TRELLIS_TEST_PYPI_PACKAGES[*]} (PyPI) for the sync tests" >&2
  "${pip[@]}" "${TRELLIS_TEST_PYPI_PACKAGES[@]}" 2>/dev/null \
    || "${pip[@]}" --break-system-packages "${TRELLIS_TEST_PYPI_PACKAGES[@]}" || {
    echo "trellis: pip could not install them; by hand: python3 -m pip install ${TRELLIS_TEST_PYPI_PACKAGES[*]}" >&2
    return 1
  }
}

# Compiles the translations, one gettext domain per folder: Trellis's own strings
# (data/po/<lang>.po, languages in data/po/LINGUAS) to .build/locale/<lang>/LC_MESSAGES/trellis.mo,
# the demo app's (data/po-demo, its domain its application id) to io.github.trellis.Demo.mo,
# where a SwiftPM build of `trellis` finds them (`meson install` puts them under the prefix instead).
trellis_compile_translations() {
  local lang folder domain
  for folder in data/po:trellis data/po-demo:io.github.trellis.Demo; do
    domain="${folder#*:}"
    folder="${folder%%:*}"
    for lang in $(grep -v '^#' "$folder/LINGUAS"); do
      mkdir -p ".build/locale/$lang/LC_MESSAGES"
      msgfmt --check -o ".build/locale/$lang/LC_MESSAGES/$domain.mo" "$folder/$lang.po"
    done
  done
}

# What running the window needs (gettext for msgfmt), and what the whole test suite needs.
TRELLIS_RUNTIME_PACKAGES=(pkg-config libgtk-4-dev libsqlite3-dev fonts-dejavu-core gettext)
# python3-pyatspi and at-spi2-core: the screen-reader tests' AT-SPI client and bus.
# orca: the screen reader the tests listen to (its speech read from its debug log).
# xdotool: real clicks and keys (X test events) for the keyboard tests.
TRELLIS_TEST_PACKAGES=("${TRELLIS_RUNTIME_PACKAGES[@]}" gcc xvfb xauth dbus-daemon meson ninja-build
  python3-pyatspi at-spi2-core orca xdotool
  desktop-file-utils appstream)
