# Fray, production image.
#
#   docker build -t fray .
#   docker run -d --name fray -p 4000-4002:4000-4002 -v fray-data:/data \
#       -e FRAY_ADMIN_PASSWORD_FILE=/run/secrets/fray_admin_password \
#       -v "$PWD/admin_password.txt:/run/secrets/fray_admin_password:ro" fray
#   docker compose up -d            # Fray + PostgreSQL (docker-compose.yml)
#
# One volume, /data, holds everything the game keeps: the SQLite database
# (unless DATABASE_URL names PostgreSQL), secret_settings.py (SECRET_KEY, made
# on the first start) and the logs. The admin account is made on the first
# start from FRAY_ADMIN_USER and a password from a secret file or
# FRAY_ADMIN_PASSWORD given at run time; no password is in the image.
# docker/entrypoint.sh does the rest (README: "Docker").

ARG PYTHON_IMAGE=python:3.11-slim-bookworm
ARG NODE_IMAGE=node:20.20.2-bookworm-slim

# ------------------------------------------------------------------ build
FROM ${PYTHON_IMAGE} AS build
ENV PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PIP_NO_CACHE_DIR=1
RUN python -m venv /opt/venv
ENV PATH=/opt/venv/bin:$PATH
WORKDIR /build
# Dependencies first (cached until pyproject.toml changes): the runtime ones
# and the `postgres` extra, never the test tools.
COPY pyproject.toml ./
RUN python -c "import tomllib; p = tomllib.load(open('pyproject.toml', 'rb'))['project']; print('\n'.join(p['dependencies'] + p['optional-dependencies']['postgres']))" > requirements.txt \
    && pip install --no-cache-dir -r requirements.txt

# ------------------------------------------------------------------ web assets
# Third-party scripts and stylesheets from the npm registry, exact versions
# checked against package-lock.json's sha512 (server/vendor.py copies them).
FROM ${NODE_IMAGE} AS assets
WORKDIR /assets
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts --no-audit --no-fund

# ------------------------------------------------------------------ runtime
FROM ${PYTHON_IMAGE}
# tini as PID 1: reaps the daemonized Evennia processes and passes signals on
RUN apt-get update \
    && apt-get install -y --no-install-recommends tini=0.19.* \
    && rm -rf /var/lib/apt/lists/*
RUN groupadd --system --gid 1000 fray \
    && useradd --system --uid 1000 --gid fray --home-dir /fray --no-create-home \
       --shell /usr/sbin/nologin fray
COPY --from=build /opt/venv /opt/venv
ENV PATH=/opt/venv/bin:$PATH \
    PYTHONUNBUFFERED=1 \
    PYTHONDONTWRITEBYTECODE=1 \
    FRAY_GAME_DIR=/fray \
    FRAY_DATA=/data \
    DATABASE_URL=sqlite:////data/evennia.db3 \
    FRAY_TELNET_PORT=4000 \
    FRAY_WEB_PORT=4001 \
    FRAY_ADMIN_USER=admin
WORKDIR /fray
# The game code (root-owned, read-only for the game); only server/ itself is
# the game's, for Evennia's pid files (fixed there by Evennia's launcher; the
# entry point removes stale ones), the ready file and collected static files.
COPY . /fray
COPY --from=assets /assets/node_modules /fray/node_modules
RUN python -m server.vendor \
    && rm -rf /fray/node_modules \
    && docker/entrypoint.sh prepare \
    && mkdir -p server/.static server/.media \
    && chown fray:fray /data /data/logs server server/.static server/.media \
    && python -m compileall -q /fray
USER 1000:1000
VOLUME ["/data"]
# telnet, web (website, webclient), websocket
EXPOSE 4000 4001 4002
# healthy: the entry point's start is over (server/fray.ready, written once a
# player can log in) and the telnet port shows the login screen
HEALTHCHECK --interval=30s --timeout=15s --start-period=300s --retries=3 \
    CMD ["python", "-m", "server.startup", "probe", "--timeout", "10", \
         "--ready-file", "/fray/server/fray.ready"]
STOPSIGNAL SIGTERM
ENTRYPOINT ["/usr/bin/tini", "--", "/fray/docker/entrypoint.sh"]
