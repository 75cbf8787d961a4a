# FAPPO Bot: one image for the bot (`run`, the default), the local table (`play`) and the tools.
# The base is pinned to a Python release and a Debian release: a rebuild gets the same Python.
# (BASE may name a local image with Python 3.11 and pip, for a build without a registry.)
ARG BASE=python:3.11.14-slim-bookworm
FROM ${BASE} AS build
ENV PIP_NO_CACHE_DIR=1
WORKDIR /src
COPY pyproject.toml README.md LICENSE ./
COPY fappo_bot ./fappo_bot
COPY migrations ./migrations
COPY examples/adventure ./examples/adventure
COPY examples/xp-adventure ./examples/xp-adventure
# the wheel carries the migrations and the example adventures (fappo_bot/resources.py and
# pyproject.toml's force-include: a source missing here fails the build)
RUN pip wheel --no-deps -w /wheels .

FROM ${BASE}
ARG BASE
ARG VERSION=0.1.0
LABEL org.opencontainers.image.title="FAPPO Bot" \
      org.opencontainers.image.description="A Discord bot that runs play-by-post games under the FAPPO rules" \
      org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.licenses="MIT" \
      org.opencontainers.image.base.name="${BASE}"
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1 FAPPO_DATA_DIR=/data
COPY --from=build /wheels /wheels
# the dependencies at the versions the tests ran with (constraints.txt), not the newest ones
COPY constraints.txt /tmp/constraints.txt
COPY docker/entrypoint.sh /usr/local/bin/fappo-entrypoint
RUN pip install -c /tmp/constraints.txt /wheels/*.whl && rm -rf /wheels /tmp/constraints.txt \
    && useradd --create-home --uid 10001 fappo && mkdir -p /data && chown fappo /data
USER fappo
WORKDIR /home/fappo
# SQLite (and the heartbeat) live on the volume; set FAPPO_DATABASE__URL for PostgreSQL. A host
# folder mounted there must be writable by uid 10001: the entry point says so and stops if not.
VOLUME ["/data"]

# healthy while the bot is connected: it touches /data/heartbeat every scheduler round (30 s)
HEALTHCHECK --interval=60s --timeout=5s --start-period=60s --retries=3 \
    CMD python -c "import os, sys, time; sys.exit(time.time() - os.path.getmtime('/data/heartbeat') > 180)"

# The bot upgrades its database on start; `fappo-bot migrate` does it alone.
ENTRYPOINT ["fappo-entrypoint"]
CMD ["run"]
