#!/bin/sh
# Starts the calibration's harness from the side's build.
exec java -XX:+UseSerialGC -cp "$PERFAB_BUILD_DIR/classes" calib.Harness
