# Sourced by Tools/build-release and Tools/bench-start: the flags of the release build that
# ships, so that the minimal argument-parser binary bench-start compares against is built the
# same way.
#
#   --static-swift-stdlib         the Swift runtime and Foundation linked in: no shared Swift
#                                 libraries to load and relocate at every start.
#   -Xlinker --no-export-dynamic  the Swift toolchain links executables with -export-dynamic,
#                                 which put 34,000 of the program's own symbols in its dynamic
#                                 symbol table; every dladdr at start-up (libc's _dl_addr, 5% of
#                                 `swcred --version`) searched them. Nothing loads code into
#                                 swcred or looks its symbols up by name, so none are exported.
#   -use-ld=lld, -z pack-relative-relocs
#                                 the toolchain's lld, with the position-independent executable's
#                                 ~100,000 relative relocations packed as RELR (a few kB instead of
#                                 2.4 MB of RELA entries the dynamic loader reads and applies one
#                                 by one); glibc 2.36+ applies them. Only with lld and glibc 2.36 or later.
#
#   -Xfrontend -function-sections every Swift function in a section of its own (the toolchain's
#                                 static runtime and Foundation are built so): --gc-sections then
#                                 drops unused functions one by one, and the link can order them.
#   --symbol-ordering-file Tools/lib/startup-order.txt (lld only)
#                                 the functions swcred runs at start and for its common commands
#                                 first and together (Tools/startup-order writes the list from a
#                                 callgrind profile). Code faulted in at start went from pages
#                                 scattered over 14 MB to a few runs: `swcred show` 541 -> 478
#                                 page faults, 4.53 -> 4.01 ms of CPU (issue 22). Stale names are
#                                 ignored (--no-warn-symbol-ordering): a stale list costs speed,
#                                 never correctness. The minimal program of Tools/bench-start is
#                                 linked with the same list (its runtime and parser functions are
#                                 in it too), so the comparison stays like for like.
#   link_libsodium_statically SCRATCH (a function, for swcred's own build only)
#                                 libsodium from its static archive (libsodium-dev ships
#                                 libsodium.a) instead of libsodium.so: one shared library less
#                                 for the dynamic loader to search for along the rpath, map,
#                                 relocate and bind at every start (0.17 ms of `swcred show`'s
#                                 4.6 ms, 22 system calls and 12 page faults; issue 22). Done by
#                                 pointing PKG_CONFIG_PATH at a libsodium.pc of the scratch
#                                 folder whose only library directory holds the archive, so the
#                                 module map's `link "sodium"` resolves to it. Without the archive
#                                 the build links libsodium.so as before. The minimal program of
#                                 Tools/bench-start does not use libsodium, so it is unaffected.
#                                 The scratch folder's zlib.pc names no library folder, so that
#                                 zlib's own (the system's) does not bring libsodium.so back.
#
# The executables stay position-independent (ASLR): linking them -no-pie would save the
# relocations altogether, and was measured and declined (see SECURITY.md).
release_flags=(-c release --static-swift-stdlib -Xlinker --no-export-dynamic -Xswiftc -Xfrontend -Xswiftc -function-sections)
startup_order="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/startup-order.txt"
glibc=$(getconf GNU_LIBC_VERSION 2>/dev/null | awk '{print $2}')
if { command -v ld.lld >/dev/null 2>&1 || [ -x "$(dirname "$(command -v swift)")/ld.lld" ]; } \
    && [ -n "$glibc" ] && printf '2.36\n%s\n' "$glibc" | sort -V -C; then
    release_flags+=(-Xswiftc -use-ld=lld -Xlinker -z -Xlinker pack-relative-relocs)
    if [ -f "$startup_order" ]; then
        release_flags+=(-Xlinker "--symbol-ordering-file=$startup_order" -Xlinker --no-warn-symbol-ordering)
    fi
fi

link_libsodium_statically() {
    local scratch=$1 libdir dir
    libdir=$(pkg-config --variable=libdir libsodium 2>/dev/null) || return 0
    [ -f "$libdir/libsodium.a" ] || return 0
    mkdir -p "$scratch/static-libsodium/lib" "$scratch/static-libsodium/pkgconfig"
    ln -sf "$libdir/libsodium.a" "$scratch/static-libsodium/lib/libsodium.a"
    dir=$(cd "$scratch/static-libsodium" && pwd)
    printf '%s\n' "Name: libsodium" "Version: $(pkg-config --modversion libsodium)" \
        "Description: libsodium from its static archive (Tools/lib/release-flags.sh)" \
        "Libs: -L$dir/lib -lsodium" "Cflags: $(pkg-config --cflags libsodium)" \
        >"$dir/pkgconfig/libsodium.pc"
    # zlib (CSWCredZlib, swcred-fetch's .ipa reader) stays shared, but its zlib.pc names the
    # system library folder (-L/usr/lib/<triple>), which SwiftPM passes on before the folder
    # above: libsodium.so would then win over the archive. This copy names no folder.
    if pkg-config --exists zlib 2>/dev/null; then
        printf '%s\n' "Name: zlib" "Version: $(pkg-config --modversion zlib)" \
            "Description: system zlib without a library folder (Tools/lib/release-flags.sh)" \
            "Libs: -lz" "Cflags: $(pkg-config --cflags zlib)" >"$dir/pkgconfig/zlib.pc"
    fi
    export PKG_CONFIG_PATH="$dir/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
}
