package cli

// cobra's bash script leans on two functions of the bash-completion
// package (_get_comp_words_by_ref and _filedir); without that package every
// Tab printed "command not found". The script written here calls them when
// they exist and small stand-ins of its own when they do not.

import (
	"bytes"
	"io"
	"regexp"
	"strings"

	"github.com/spf13/cobra"
)

// bashFallbacks are the stand-ins; NAME is the program's name. words joins
// again what bash split at = and : (bash-completion's -n =:) by looking at
// COMP_LINE: a word that touches the one before it and begins or ends at a
// = or : belongs to it.
const bashFallbacks = `
# Without the bash-completion package: the words of the command line and
# file names, as far as dynascope's completion needs them.
__NAME_comp_words()
{
    if declare -F _get_comp_words_by_ref >/dev/null 2>&1; then
        _get_comp_words_by_ref "$@"
        return
    fi
    local line=${COMP_LINE:0:COMP_POINT} i w rest gap
    words=()
    cword=0
    for ((i = 0; i < ${#COMP_WORDS[@]}; i++)); do
        w=${COMP_WORDS[i]}
        rest=${line#"${line%%[![:space:]]*}"}
        gap=$((${#line} - ${#rest}))
        line=${rest:${#w}}
        if ((i > 0 && gap == 0)) && [[ $w == [=:]* || ${words[${#words[@]}-1]} == *[=:] ]]; then
            words[${#words[@]}-1]+=$w
        else
            words+=("$w")
        fi
        if ((i == COMP_CWORD)); then
            cword=$((${#words[@]} - 1))
        fi
    done
    cur=${words[cword]-}
    prev=
    if ((cword > 0)); then
        prev=${words[cword-1]}
    fi
}

__NAME_filedir()
{
    if declare -F _filedir >/dev/null 2>&1; then
        _filedir "$@"
        return
    fi
    local IFS=$'\n' ext
    COMPREPLY=($(compgen -d -- "$cur"))
    if [[ $1 != -d ]]; then
        if [[ -z ${1%|} ]]; then
            COMPREPLY+=($(compgen -f -- "$cur"))
        else
            for ext in ${1//|/$'\n'}; do
                COMPREPLY+=($(compgen -f -X "!*.$ext" -- "$cur"))
            done
        fi
    fi
    compopt -o filenames 2>/dev/null
}
`

var bashFiledir = regexp.MustCompile(`\b_filedir\b`)

// genBashCompletion writes cobra's bash script with the stand-ins.
func genBashCompletion(root *cobra.Command, out io.Writer) error {
	var b bytes.Buffer
	if err := root.GenBashCompletionV2(&b, true); err != nil {
		return err
	}
	name := bashFunctionName(root.Name())
	script := strings.ReplaceAll(b.String(), "_get_comp_words_by_ref \"$@\" cur prev words cword", "__"+name+"_comp_words \"$@\" cur prev words cword")
	script = bashFiledir.ReplaceAllString(script, "__"+name+"_filedir")
	_, err := io.WriteString(out, script+strings.ReplaceAll(bashFallbacks, "NAME", name))
	return err
}

// bashFunctionName is the name as cobra puts it into function names.
func bashFunctionName(name string) string {
	return strings.NewReplacer("-", "_", ":", "__").Replace(name)
}
