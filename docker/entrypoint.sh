#!/bin/sh
# The image's entry point: `fappo-bot` with the arguments given (`run` by default), after one
# check that only the image can make. Its user is uid 10001, and a host folder bind-mounted on
# /data keeps the host's owner (root, most often): the bot would start and then fail on its first
# write (SQLite, the heartbeat the health check reads) with a traceback. Said here in one sentence
# instead, with the fix; a named volume is created owned by the image's user and passes.
set -eu
data=${FAPPO_DATA_DIR:-data}
case "${1:-run}" in
    run|play|migrate|import)  # the commands that write there (the others only read files)
        mkdir -p "$data" 2>/dev/null || true
        probe="$data/.writable-$$"
        if ! touch "$probe" 2>/dev/null; then
            echo "fappo-bot: the data folder $data must be writable by uid $(id -u)" \
                 "(chown $(id -u) on the host folder mounted there, or use a named volume)." >&2
            exit 1
        fi
        rm -f "$probe"
        ;;
esac
exec fappo-bot "$@"
