# Fray in a container.
#   docker build -t fray .
#   docker run -p 4000:4000 -p 4001:4001 -p 4002:4002 fray
# then: telnet localhost 4000  /  http://localhost:4001/webclient
#
# Same steps as `make run`; the only difference is that the container stays in
# the foreground: Evennia 5 daemonizes Portal+Server on `evennia start`, and
# `-l` keeps the launcher tailing server/logs/*.log (Ctrl-C / docker stop ends it).
FROM python:3.11-slim

RUN apt-get update \
    && apt-get install -y --no-install-recommends make \
    && rm -rf /var/lib/apt/lists/*

WORKDIR /fray
COPY . /fray

# .venv + project + test extras (the Makefile's `install` target).
RUN rm -rf .venv server/conf/secret_settings.py && make install

ENV FRAY_TELNET_PORT=4000 \
    FRAY_WEB_PORT=4001 \
    FRAY_ADMIN_USER=admin \
    FRAY_ADMIN_PASSWORD=fray-admin \
    PATH=/fray/.venv/bin:$PATH

# telnet, web (webclient/website), websocket
EXPOSE 4000 4001 4002

# secret_settings.py (random SECRET_KEY, per container), migrate, then start;
# Evennia creates the admin from EVENNIA_SUPERUSER_* on the first start.
CMD ["sh", "-c", "make secret migrate && rm -f server/*.pid && EVENNIA_SUPERUSER_USERNAME=\"$FRAY_ADMIN_USER\" EVENNIA_SUPERUSER_PASSWORD=\"$FRAY_ADMIN_PASSWORD\" exec evennia start -l"]
