# FAPPO Bot: one image for the bot (`run`), the local table (`play`) and the tools.
FROM python:3.11-slim AS base
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1
WORKDIR /app

COPY pyproject.toml README.md ./
COPY fappo_bot ./fappo_bot
COPY migrations ./migrations
COPY alembic.ini ./
RUN pip install . && useradd --create-home --uid 10001 fappo && mkdir -p /data && chown fappo /data
USER fappo
ENV FAPPO_DATA_DIR=/data
VOLUME ["/data"]

# The bot upgrades its database on start; `fappo-bot migrate` does it alone.
ENTRYPOINT ["fappo-bot"]
CMD ["run"]
