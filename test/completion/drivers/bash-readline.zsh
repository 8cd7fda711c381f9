# zsh -f bash-readline.zsh <completion-script> <out-file> <line>
# Real readline: an interactive bash on a pseudo-terminal (zsh's zpty) gets <line>, a Tab, then a key
# bound to write the edited line to <out-file>.
zmodload zsh/zpty || exit 3
local script=$1 out=$2 line=$3
zpty b bash --norc --noprofile -i
zpty -w b "PS1=; bind 'set bell-style none'; source ${(q)script}; bind -x '\"\\C-x\\C-p\": printf %s \"\$READLINE_LINE\" > ${(q)out}.tmp; mv ${(q)out}.tmp ${(q)out}'"
zpty -w -n b "$line"$'\t'$'\C-x\C-p'
integer i
for (( i = 0; i < 300; i++ )); do [[ -e $out ]] && break; sleep 0.05; done
zpty -d b
[[ -e $out ]]
