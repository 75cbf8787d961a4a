# FAPPO Bot: one image for the bot (`run`, the default), the local table (`play`) and the tools.
FROM python:3.11-slim AS build
ENV PIP_NO_CACHE_DIR=1
WORKDIR /src
COPY pyproject.toml README.md ./
COPY fappo_bot ./fappo_bot
COPY migrations ./migrations
COPY examples/adventure ./examples/adventure
COPY examples/xp-adventure ./examples/xp-adventure
# the wheel carries the migrations and the example adventures (fappo_bot/resources.py and
# pyproject.toml's force-include: a source missing here fails the build)
RUN pip wheel --no-deps -w /wheels .

FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1 FAPPO_DATA_DIR=/data
COPY --from=build /wheels /wheels
RUN pip install /wheels/*.whl && rm -rf /wheels \
    && useradd --create-home --uid 10001 fappo && mkdir -p /data && chown fappo /data
USER fappo
WORKDIR /home/fappo
# SQLite (and the heartbeat) live on the volume; set FAPPO_DATABASE__URL for PostgreSQL
VOLUME ["/data"]

# healthy while the bot is connected: it touches /data/heartbeat every scheduler round (30 s)
HEALTHCHECK --interval=60s --timeout=5s --start-period=60s --retries=3 \
    CMD python -c "import os, sys, time; sys.exit(time.time() - os.path.getmtime('/data/heartbeat') > 180)"

# The bot upgrades its database on start; `fappo-bot migrate` does it alone.
ENTRYPOINT ["fappo-bot"]
CMD ["run"]
