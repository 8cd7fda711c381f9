# bash --norc bash-function.bash <completion-script> <line>
# Calls _cmdb the way bash's programmable completion does for a cursor at the end of <line>, then
# prints COMPREPLY one per line; compopt calls (not allowed outside real completion) go to stderr,
# through fd 3 because the script silences compopt's own stderr.
source "$1" || exit 3
exec 3>&2
compopt() { printf 'compopt %s\n' "$*" >&3; }
COMP_LINE=$2
COMP_POINT=${#COMP_LINE}
read -ra COMP_WORDS <<< "$COMP_LINE"
[[ $COMP_LINE == *' ' ]] && COMP_WORDS+=('')
COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))
_cmdb cmdb "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
printf '%s\n' "${COMPREPLY[@]}"
