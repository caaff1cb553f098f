# Sourced by Tools/* scripts. Installs Debian packages the build and tests need when they are
# missing: libsodium-dev, zlib1g-dev (deflated .ipa entries) and pkg-config (build), strace (fault-injection tests), and Debian's
# publicsuffix data, which swcred reads at run time for WebAuthn related origins (issue 30; the
# README's related-origins walk-through needs it).
ensure_deps() {
    local missing=()
    pkg-config --exists libsodium 2>/dev/null || missing+=(libsodium-dev pkg-config)
    pkg-config --exists zlib 2>/dev/null || missing+=(zlib1g-dev pkg-config)
    command -v strace >/dev/null 2>&1 || missing+=(strace)
    [ -r /usr/share/publicsuffix/public_suffix_list.dat ] || missing+=(publicsuffix)
    if [ ${#missing[@]} -eq 0 ]; then return 0; fi
    local sudo=""
    if [ "$(id -u)" != 0 ]; then
        if command -v sudo >/dev/null 2>&1; then sudo="sudo"; else
            echo "swcred: please install: ${missing[*]} (apt-get install -y ${missing[*]})" >&2
            return 1
        fi
    fi
    echo "swcred: installing ${missing[*]} ..." >&2
    export DEBIAN_FRONTEND=noninteractive
    $sudo apt-get update -qq >&2
    $sudo apt-get install -y -qq "${missing[@]}" >&2
}
