#!/bin/sh
# Rules that keep hostile input harmless and the layers honest, checked on the real sources
# and the built program:
#   1. SQL is only ever built from constants: values go through bound parameters. The one
#      exception is PRAGMA, which takes no parameters - and only with integer constants.
#   2. No network access anywhere: no network API in the sources, no network library linked.
#   3. core/ is pure C++ (no Qt include); ui/ runs no SQL.
# Usage: source_rules.sh SOURCE_DIR BINARY
set -u
src=$1
bin=$2
failed=0
fail() { echo "FAIL: $*"; failed=1; }

# 1. A string literal that starts an SQL statement, followed by '+' on the same line.
sql_concat=$(grep -rnE '"[[:space:]]*(SELECT|INSERT|UPDATE|DELETE|REPLACE|CREATE|DROP|ALTER|PRAGMA|VACUUM|ATTACH)[^"]*"[[:space:]]*\+' \
    "$src/core" "$src/app" "$src/ui" --include='*.cpp' --include='*.h' |
    grep -vE '"PRAGMA (application_id|user_version) = "[[:space:]]*\+[[:space:]]*std::to_string\((schema::kApplicationId|m\.toVersion)\)')
[ -n "$sql_concat" ] && fail "SQL built by concatenation (use bound parameters):
$sql_concat"

# 2. Network APIs in the sources, network libraries in the program.
net_src=$(grep -rnE 'QNetwork|QTcpSocket|QUdpSocket|QWebSocket|QDesktopServices::openUrl|curl_|getaddrinfo|[^a-z_]socket\(|<netdb\.h>|<sys/socket\.h>' \
    "$src/core" "$src/app" "$src/ui" --include='*.cpp' --include='*.h')
[ -n "$net_src" ] && fail "network access in the sources:
$net_src"
if command -v readelf >/dev/null 2>&1; then
    net_lib=$(readelf -d "$bin" | grep NEEDED | grep -iE 'network|curl|ssl|crypto|websocket|dbus')
    [ -n "$net_lib" ] && fail "$bin links a network library:
$net_lib"
else
    echo "note: readelf not found; linked libraries not checked"
fi

# 3. Layers.
qt_in_core=$(grep -rnE '#include[[:space:]]*<Q' "$src/core")
[ -n "$qt_in_core" ] && fail "Qt included in core/:
$qt_in_core"
sql_in_ui=$(grep -rnE 'SQLiteCpp|sqlite3\.h|"(SELECT|INSERT|UPDATE|DELETE) ' "$src/ui")
[ -n "$sql_in_ui" ] && fail "SQL in ui/:
$sql_in_ui"

[ $failed -eq 0 ] && echo "source rules: SQL bound, no network, layers clean"
exit $failed
