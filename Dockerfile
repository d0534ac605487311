# syntax=docker/dockerfile:1
#
# The `ledger` image: one binary for every role (serve, project, migrate, …), chosen by the
# command; docker-compose.yml runs it three ways.
#
#   docker build -t ledger .
#   docker run --rm -e DATABASE_URL=postgresql://… ledger migrate
#
# Both stages are Debian 12 (bookworm), so the libraries the binary is linked against at
# build time are the same majors the runtime installs (libpq5, libssl3, libmicrohttpd12).

ARG SWIFT_IMAGE=swift:6.3-bookworm
ARG RUNTIME_IMAGE=debian:bookworm-slim

FROM ${SWIFT_IMAGE} AS build
RUN apt-get update \
 && apt-get install -y --no-install-recommends libpq-dev libssl-dev libmicrohttpd-dev \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
# The test targets' folders are copied too: the manifest names them, and SwiftPM refuses a
# manifest whose target folders are missing even when building one product.
COPY Package.swift ./
COPY Sources ./Sources
COPY Tests ./Tests
# --static-swift-stdlib links the Swift runtime and Foundation into the binary, so the
# runtime stage needs no toolchain libraries, only the C libraries below. The cache mount
# keeps .build between image builds; the binary is copied out of it in the same step.
RUN --mount=type=cache,target=/src/.build \
    swift build -c release --product ledger --static-swift-stdlib \
 && install -D -m 0755 "$(swift build -c release --show-bin-path)/ledger" /out/ledger

FROM ${RUNTIME_IMAGE}
RUN apt-get update \
 && apt-get install -y --no-install-recommends libpq5 libssl3 libmicrohttpd12 libstdc++6 ca-certificates tzdata \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --system --user-group --no-create-home --home-dir /app --shell /usr/sbin/nologin ledger
WORKDIR /app
COPY --from=build /out/ledger /usr/local/bin/ledger
COPY sql/ /app/sql/
# Inside a container the server must listen on every interface to be reachable through a
# published port; the default (127.0.0.1) is for a developer's machine.
ENV LEDGER_SQL_DIR=/app/sql \
    LEDGER_HOST=0.0.0.0 \
    LEDGER_PORT=8080
USER ledger
EXPOSE 8080
ENTRYPOINT ["ledger"]
CMD ["serve"]
