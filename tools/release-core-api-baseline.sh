#!/usr/bin/env bash
# Records a release of core-api as the baseline the build checks core-api's package versions against
# (bnd-baseline-maven-plugin, in core-api's pom). Run it when a release is cut, then commit what it changed:
#
#   tools/release-core-api-baseline.sh VERSION [REVISION] [MAVEN ARGS...]
#
#   VERSION   the release's version, such as 0.2.0
#   REVISION  the git revision the release was built from (default HEAD; uncommitted changes are left out)
#
# It builds core-api as it is at REVISION with VERSION as its version, stores the jar and a pom in
# bundles/core-api/baseline/ (a file-based Maven repository, kept in the tree because Kubelix is not published
# to a Maven repository), removes the previous baseline, and sets core-api.baseline.version in core-api's pom.
set -euo pipefail

if [[ $# -lt 1 || "$1" == -* ]]; then
  sed -n '2,12s/^# \{0,1\}//p' "$0" >&2
  exit 2
fi
version="$1"
revision="${2:-HEAD}"
shift $(( $# < 2 ? $# : 2 ))

cd "$(git rev-parse --show-toplevel)"
repo="bundles/core-api/baseline"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

# 1. A clean copy of the revision: the parent pom, the wrapper and core-api are all a core-api build reads.
git archive --format=tar "$revision" pom.xml mvnw .mvn bundles/core-api | tar -x -C "$tmp"

# 2. The release's version: the parent's own version and core-api's parent reference.
snapshot="$(sed -n 's|^  <version>\(.*\)</version>$|\1|p' "$tmp/pom.xml" | head -1)"
sed -i "s|<version>${snapshot}</version>|<version>${version}</version>|" "$tmp/pom.xml" "$tmp/bundles/core-api/pom.xml"

# 3. Build it alone (-f on core-api finds the parent by its relative path); its own baseline check is
#    skipped, as the revision passed it in its own build.
"$tmp/mvnw" -B -q -f "$tmp/bundles/core-api/pom.xml" -DskipTests -Dbnd.baseline.skip=true "$@" package
jar="$tmp/bundles/core-api/target/core-api-${version}.jar"

# 4. The baseline repository holds this release only; the earlier ones stay in git's history.
rm -rf "$repo/io"
dir="$repo/io/kubelix/core-api/${version}"
mkdir -p "$dir"
cp "$jar" "$dir/core-api-${version}.jar"
cat > "$dir/core-api-${version}.pom" <<EOF
<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <!-- The released core-api, kept as the baseline of core-api's semantic-versioning check. -->
  <modelVersion>4.0.0</modelVersion>
  <groupId>io.kubelix</groupId>
  <artifactId>core-api</artifactId>
  <version>${version}</version>
  <description>core-api ${version}, built from $(git rev-parse --short "$revision")</description>
</project>
EOF
for f in "$dir"/*.jar "$dir"/*.pom; do
  sha1sum "$f" | cut -d' ' -f1 | tr -d '\n' > "$f.sha1"
done

# 5. Point the check at it.
sed -i "s|<core-api.baseline.version>.*</core-api.baseline.version>|<core-api.baseline.version>${version}</core-api.baseline.version>|" \
  bundles/core-api/pom.xml
echo "core-api ${version} is the baseline now ($dir); commit $repo and bundles/core-api/pom.xml."
