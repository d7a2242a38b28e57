#!/usr/bin/env bash
# The reviewed public API: every public declaration of every library product, one line each,
# per module, sorted, in API/public-api.txt. A team sees exactly these; the engine is `package`.
#
#   Scripts/check-public-api.sh            # regenerate into a temp file; fail with a diff on any change
#   Scripts/check-public-api.sh --update   # rewrite API/public-api.txt (review the diff, commit it)
#
# Also fails when a public declaration has no doc comment, or when an engine name
# (TimelineScheduler, DeepeningSearch, …) appears in the public file.
#
# Lines come from symbol graphs (swift-symbolgraph-extract over the debug build's modules):
# `Module: Path.to.member: declaration [conformances]`. Synthesized members are left out.
# The build it reads is the CI build (`swift build --build-tests -Xswiftc -warnings-as-errors`),
# so right after that step this one rebuilds nothing.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v swift >/dev/null 2>&1 && [ -x /opt/swift/usr/bin/swift ]; then
    export PATH="/opt/swift/usr/bin:$PATH"
fi
update=false
case "${1:-}" in
    --update) update=true ;;
    "") ;;
    *) echo "usage: Scripts/check-public-api.sh [--update]" >&2; exit 2 ;;
esac

api_file=API/public-api.txt
# What only the kit's own targets may use: never public.
engine_names=(TimelineScheduler DeepeningSearch ParallelSearch ScheduleShrinker SplitMix64 withWatchdog
    listDifference ContractRun MatrixEntry)

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
if ! swift build --build-tests -Xswiftc -warnings-as-errors >"$work/build.log" 2>&1; then
    cat "$work/build.log" >&2
    echo "check-public-api: the build failed; the public API was not checked" >&2
    exit 1
fi
bin="$(swift build --show-bin-path)"
symbolgraph_extract="$(dirname "$(command -v swift)")/swift-symbolgraph-extract"
triple="$(swift -print-target-info | python3 -c 'import json,sys; print(json.load(sys.stdin)["target"]["triple"])')"
# The library products: what another package can depend on.
modules="$(swift package dump-package | python3 -c '
import json, sys
package = json.load(sys.stdin)
print("\n".join(sorted({t for p in package["products"] if "library" in p["type"] for t in p["targets"]})))')"
for module in $modules; do
    mkdir -p "$work/graphs/$module"
    "$symbolgraph_extract" -module-name "$module" -I "$bin/Modules" -target "$triple" \
        -minimum-access-level public -skip-synthesized-members \
        -module-cache-path "$bin/ModuleCache" -output-dir "$work/graphs/$module"
done

python3 - "$work/graphs" "$work/public-api.txt" "$work/undocumented.txt" <<'PY'
import glob, json, os, re, sys

graphs, out, undocumented = sys.argv[1:4]
lines, missing = set(), set()
for path in sorted(glob.glob(os.path.join(graphs, "*", "*.symbols.json"))):
    graph = json.load(open(path))
    module = os.path.basename(os.path.dirname(path))
    symbols = {s["identifier"]["precise"]: s for s in graph["symbols"]}
    conformances, defaults = {}, set()
    for relation in graph.get("relationships", []):
        if relation["kind"] == "defaultImplementationOf":
            defaults.add(relation["source"])
        if relation["kind"] in ("conformsTo", "inheritsFrom") and relation["source"] in symbols:
            target = symbols.get(relation["target"])
            name = ".".join(target["pathComponents"]) if target else \
                relation.get("targetFallback", relation["target"]).split(".")[-1]
            if name != "SendableMetatype":  # implied by Sendable
                conformances.setdefault(relation["source"], set()).add(name)
    for precise, symbol in symbols.items():
        declaration = "".join(f["spelling"] for f in symbol.get("declarationFragments", []))
        declaration = re.sub(r"\s+", " ", declaration).strip()
        line = f"{module}: {'.'.join(symbol['pathComponents'])}: {declaration}"
        if precise in conformances:
            line += " [" + ", ".join(sorted(conformances[precise])) + "]"
        if precise in defaults:
            line += " (default implementation)"
        lines.add(line)
        if not symbol.get("docComment"):
            location = symbol.get("location", {})
            where = location.get("uri", "").replace("file://" + os.getcwd() + "/", "")
            missing.add(f"{where}:{location.get('position', {}).get('line', -1) + 1}: {line}")
with open(out, "w") as f:
    f.write("".join(l + "\n" for l in sorted(lines)))
with open(undocumented, "w") as f:
    f.write("".join(l + "\n" for l in sorted(missing)))
PY

status=0
for name in "${engine_names[@]}"; do
    if grep -qw -- "$name" "$work/public-api.txt"; then
        echo "check-public-api: the engine's $name is public; make it \`package\`:" >&2
        grep -w -- "$name" "$work/public-api.txt" | sed 's/^/  /' >&2
        status=1
    fi
done
if [ -s "$work/undocumented.txt" ]; then
    echo "check-public-api: public declarations without a doc comment:" >&2
    sed 's/^/  /' "$work/undocumented.txt" >&2
    status=1
fi

echo "public declarations per module:"
for module in $modules; do
    printf '  %4d %s\n' "$(grep -c "^$module: " "$work/public-api.txt" || true)" "$module"
done
if $update; then
    mkdir -p "$(dirname "$api_file")"
    cp "$work/public-api.txt" "$api_file"
    echo "check-public-api: wrote $api_file ($(wc -l <"$api_file") declarations)"
elif ! diff -u --label "$api_file (reviewed)" --label "public API (this build)" "$api_file" "$work/public-api.txt"; then
    echo "check-public-api: the public API changed; review it, then run Scripts/check-public-api.sh --update and commit $api_file" >&2
    status=1
else
    echo "check-public-api: the public API matches $api_file ($(wc -l <"$api_file") declarations)"
fi
exit $status
