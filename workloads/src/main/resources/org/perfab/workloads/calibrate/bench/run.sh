#!/bin/sh
# Starts the harness, compiled with the subject, from the side's build; the arguments are its own.
exec java -XX:+UseSerialGC -cp "$PERFAB_BUILD_DIR/classes" Harness "$@"
