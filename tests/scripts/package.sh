#!/usr/bin/env bash
# package.sh — the Debian package (issue 50), made by `cpack -G DEB` from the
# build folder under test into a temporary folder: tengen_VERSION_ARCH.deb
# holds the program, libtengen (library, headers, pkg-config), a manual
# page for tengen and for every command `tengen --help` lists, the units
# and /etc/default/tengen; its Depends is computed (dpkg-shlibdeps) and
# its maintainer scripts are there.  The units pass `systemd-analyze
# verify` in a root made of the package (where systemd-analyze is
# installed); every option they give tengen is in its --help; the manual
# pages render without a warning; the packaged program runs.
# Skipped without dpkg-deb (not Debian) and in builds that make no manual
# pages (sanitizers, fuzzing).  Needs TENGEN_BIN and TENGEN_BUILD_DIR (CTest
# sets both).
set -euo pipefail

: "${TENGEN_BIN:?TENGEN_BIN must name the tengen binary}"
: "${TENGEN_BUILD_DIR:?TENGEN_BUILD_DIR must name the build folder}"
command -v dpkg-deb >/dev/null || { echo "SKIP: no dpkg-deb (not Debian)"; exit 0; }
[ -d "$TENGEN_BUILD_DIR/man" ] || { echo "SKIP: this build makes no manual pages"; exit 0; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
ok() { echo "ok   $*"; }
fail() { echo "FAIL $*"; fails=$((fails + 1)); }

# ---- the package --------------------------------------------------------------
if ! cpack -G DEB --config "$TENGEN_BUILD_DIR/CPackConfig.cmake" -B "$tmp" >"$tmp/cpack.log" 2>&1; then
    tail -n 30 "$tmp/cpack.log"
    echo "FAIL cpack -G DEB"
    exit 1
fi
version=$("$TENGEN_BIN" --version | sed 's/^tengen //')
arch=$(dpkg --print-architecture)
deb="$tmp/tengen_${version}_${arch}.deb"
[ -f "$deb" ] || { ls "$tmp"; echo "FAIL no $(basename "$deb")"; exit 1; }
ok "cpack made $(basename "$deb"), $(stat -c %s "$deb") bytes"

dpkg-deb -c "$deb" | sed 's/ -> .*//' | awk '{print $NF}' | sed 's|^\./|/|' >"$tmp/contents"
has() { grep -Eq "$1" "$tmp/contents"; }
commands=$("$TENGEN_BIN" --help | sed -n 's/^  \([a-z][a-z]*\)  .*/\1/p')
expect=("^/usr/bin/tengen$" "^/usr/lib/.*libtengen\.so\.0$" "^/usr/include/tengen/board\.h$"
        "^/usr/lib/.*pkgconfig/tengen\.pc$" "^/usr/lib/.*cmake/tengen/tengenConfig\.cmake$"
        "^/usr/share/man/man1/tengen\.1\.gz$"
        "^(/usr)?/lib/systemd/system/tengen\.service$" "^(/usr)?/lib/systemd/system/tengen-backup\.service$"
        "^(/usr)?/lib/systemd/system/tengen-backup\.timer$" "^/etc/default/tengen$")
for c in $commands; do expect+=("^/usr/share/man/man1/tengen-$c\.1\.gz$"); done
missing=0
for e in "${expect[@]}"; do has "$e" || { fail "the package has no file matching $e"; missing=1; }; done
[ $missing = 1 ] || ok "dpkg-deb -c: program, library, headers, pkg-config, CMake files, $((1 + $(wc -w <<<"$commands"))) manual pages, 3 units, /etc/default/tengen"

dpkg-deb -e "$deb" "$tmp/control"
depends=$(dpkg-deb -f "$deb" Depends)
case "$depends" in
    *libc6*libsqlite3-0*) ok "Depends: $depends" ;;
    *) fail "Depends should name libc6 and libsqlite3-0 (dpkg-shlibdeps): '$depends'" ;;
esac
for name in $(sed 's/([^)]*)//g; s/,/ /g; s/|/ /g' <<<"$depends"); do
    dpkg-query -W -f='${Status}' "$name" 2>/dev/null | grep -q "install ok installed" ||
        fail "Depends names $name, which is not installed here"
done
for script in postinst prerm postrm; do
    if [ -x "$tmp/control/$script" ] && sh -n "$tmp/control/$script"; then :; else fail "maintainer script $script missing, not executable or not sh"; fi
done
grep -qx /etc/default/tengen "$tmp/control/conffiles" || fail "/etc/default/tengen is not a conffile"
grep -q 'ldconfig' "$tmp/control/triggers" 2>/dev/null || fail "no ldconfig trigger for libtengen"
ok "maintainer scripts postinst, prerm, postrm; conffiles; ldconfig trigger"

# ---- what is installed ----------------------------------------------------------
root="$tmp/root"
dpkg-deb -x "$deb" "$root"
unitdir=$(dirname "$(grep -E '/systemd/system/tengen\.service$' "$tmp/contents")")
"$root/usr/bin/tengen" serve --migrate-only --db "$tmp/t.db" | grep -q "schema version" &&
    ok "the packaged program runs: $("$root/usr/bin/tengen" --version)" || fail "the packaged tengen serve --migrate-only"
include=$(PKG_CONFIG_PATH="$root/usr/lib/pkgconfig" pkg-config --cflags-only-I tengen 2>/dev/null | sed 's/^-I//; s/ *$//')
[ -n "$include" ] && [ -f "$include/tengen/board.h" ] &&
    ok "tengen.pc finds the headers where the package puts them" || fail "tengen.pc in the package: -I'$include'"

# every option a unit gives tengen is one its --help documents
for unit in "$root$unitdir"/tengen*.service; do
    grep -E '^Exec[A-Za-z]*=/usr/bin/tengen ' "$unit" | while read -r line; do
        cmd=$(awk '{print $2}' <<<"${line#*=}")
        help=$("$TENGEN_BIN" "$cmd" --help)
        for opt in $(grep -oE -- '--[a-z][a-z-]*' <<<"$line"); do
            grep -q -- "$opt" <<<"$help" || echo "$(basename "$unit"): tengen $cmd has no $opt"
        done
    done
done >"$tmp/options"
[ -s "$tmp/options" ] && fail "$(cat "$tmp/options")" || ok "every option in the units' command lines is in tengen's --help"

if command -v systemd-analyze >/dev/null && [ -d /usr/lib/systemd/system ]; then
    # a root where systemd finds its own units beside the package's, and
    # man finds the package's pages (verify checks Documentation=)
    cp -rPn /usr/lib/systemd/system/. "$root$unitdir/" 2>/dev/null || true
    units=(tengen.service tengen-backup.service tengen-backup.timer)
    if MANPATH="$root/usr/share/man" systemd-analyze verify --root="$root" "${units[@]/#/$unitdir/}" \
        >"$tmp/verify" 2>&1 && [ ! -s "$tmp/verify" ]; then
        ok "systemd-analyze verify: ${units[*]}"
    else
        fail "systemd-analyze verify: $(cat "$tmp/verify")"
    fi
else
    echo "skip systemd-analyze verify (not installed)"
fi

# ---- the manual pages render ----------------------------------------------------
render=""
if command -v man >/dev/null; then render=man; elif command -v groff >/dev/null; then render=groff; fi
bad=0
for page in "$root"/usr/share/man/man1/*.1.gz; do
    case $render in
        man) out=$(LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -l "$page" 2>"$tmp/warn") ;;
        groff) out=$(gzip -dc "$page" | groff -man -Tutf8 -ww -k 2>"$tmp/warn") ;;
        *) out=$(gzip -dc "$page"); : >"$tmp/warn" ;;
    esac
    if [ -s "$tmp/warn" ] || ! grep -q "NAME" <<<"$out" || ! grep -q "SYNOPSIS" <<<"$out"; then
        fail "$(basename "$page"): $(head -c 400 "$tmp/warn")"
        bad=1
    fi
done
if [ $bad = 0 ]; then
    gzip -dc "$root/usr/share/man/man1/tengen-serve.1.gz" | grep -q -- '-migrate-only' &&
        ok "the manual pages render (${render:-roff text checked}) and tengen-serve(1) documents --migrate-only" ||
        fail "tengen-serve(1) does not document --migrate-only"
fi

[ $fails = 0 ] || { echo "$fails failed"; exit 1; }
