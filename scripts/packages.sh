# packages.sh - sourced by scripts/ensure-deps.sh and .ci/run: the one package list,
# scripts/packages.txt, read line by line. packages_missing SCOPE prints the packages of the
# list that are not installed here: SCOPE build leaves out the lines whose purpose starts
# with "tests:", "CI:" or "view:", SCOPE tests takes only the "tests:" ones, SCOPE view only
# the "view:" ones, SCOPE ci every line.

# Whether a check of the list ("pkg-config:MODULE", "file:PATH", "glob:PATTERN",
# "command:NAME") holds here.
package_present() {
    case $1 in
        pkg-config:*) command -v pkg-config >/dev/null 2>&1 && pkg-config --exists "${1#pkg-config:}" ;;
        file:*) [ -e "${1#file:}" ] ;;
        glob:*) ls ${1#glob:} >/dev/null 2>&1 ;;
        command:*) command -v "${1#command:}" >/dev/null 2>&1 ;;
        *) false ;;
    esac
}

packages_missing() {
    scope=$1 list=$(dirname "$0")/packages.txt
    [ -f "$list" ] || list=scripts/packages.txt
    while read -r package check purpose; do
        case $package in ''|'#'*) continue ;; esac
        case $scope:$purpose in
            build:CI:* | build:tests:* | build:view:*) continue ;;
            tests:tests:* | view:view:*) ;;
            tests:* | view:*) continue ;;
        esac
        package_present "$check" || printf ' %s' "$package"
    done < "$list"
}
