# zsh -f zsh.zsh <completion-script> <out-dir> <line>
# Real zle and compsys: an interactive zsh on a pseudo-terminal (zpty) loads compinit and the script,
# gets <line> and a Tab. Every match added with compadd is appended to <out-dir>/candidates; a key
# bound after the Tab writes the edited line to <out-dir>/buffer.
zmodload zsh/zpty || exit 3
local script=$1 out=$2 line=$3
: > $out/candidates
zpty z zsh -f -i
zpty -w z "PS1=; RPS1=; autoload -Uz compinit; compinit -u -D; source ${(q)script}"
zpty -w z "compadd() { if (( \${@[(I)-[OAD]*]} )); then builtin compadd \"\$@\"; return; fi; local -a hits; builtin compadd -O hits \"\$@\"; print -rl -- \$hits >> ${(q)out}/candidates; builtin compadd \"\$@\"; }"
zpty -w z "dump-buffer() { print -r -- \$BUFFER > ${(q)out}/buffer.tmp; mv ${(q)out}/buffer.tmp ${(q)out}/buffer; }; zle -N dump-buffer; bindkey '^X^P' dump-buffer"
zpty -w -n z "$line"$'\t'$'\C-x\C-p'
integer i
for (( i = 0; i < 300; i++ )); do [[ -e $out/buffer ]] && break; sleep 0.05; done
zpty -d z
[[ -e $out/buffer ]]
