# bash completion for pgnkit.  The program itself says what may go where
# (`pgnkit --complete N WORD...`, src/cli/complete.h), from the table its parser reads,
# so this file never lists an option and cannot fall behind the binary.
_pgnkit() {
    local out cur=${COMP_WORDS[COMP_CWORD]} line
    out=$("${COMP_WORDS[0]}" --complete "$COMP_CWORD" "${COMP_WORDS[@]}" 2>/dev/null) || return
    COMPREPLY=()
    while IFS= read -r line; do
        if [ "$line" = :files ]; then
            [ "$cur" = = ] && cur=
            compopt -o filenames 2>/dev/null
            while IFS= read -r line; do COMPREPLY+=("$line"); done < <(compgen -f -- "$cur")
        elif [ -n "$line" ]; then
            COMPREPLY+=("$line")
        fi
    done <<<"$out"
}
complete -F _pgnkit pgnkit
