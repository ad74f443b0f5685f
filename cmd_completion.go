package main

// `dynascope completion bash|zsh|fish` prints a static completion script.
// The flags in it are read from the commands' own flag sets (each command
// run with -h into a buffer), so the scripts cannot drift from the flags;
// only the command list and its one-line descriptions live here.

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"regexp"
	"strings"
)

// completionCommands are the subcommands offered, in the order of `dynascope help`.
var completionCommands = []struct{ name, desc string }{
	{"tables", "tables with keys, indexes, items, size"},
	{"query", "one access pattern as one Query"},
	{"get", "one item by its full primary key"},
	{"groups", "the entity types of a partition"},
	{"layout", "the key layout of a table, from a sample"},
	{"patterns", "the access patterns of dynascope.yaml"},
	{"seed", "create a table and load data (the only write)"},
	{"demo", "DynamoDB Local with the demo data and the UI"},
	{"config", "where the settings file is and what it says"},
	{"completion", "print a shell completion script"},
	{"version", "print the version and commit"},
	{"help", "print the commands"},
}

// completionArgs are the words some commands take instead of flags.
var completionArgs = map[string][]string{
	"config":     {"path", "show"},
	"completion": {"bash", "zsh", "fish"},
}

// compFlag is one flag of one command, as its -h output shows it.
type compFlag struct {
	name    string
	value   bool     // takes a value
	choices []string // the values its usage lists as "a | b | c"
	file    bool     // its value is a file name
	desc    string   // the first sentence of its usage
}

// compCommand is a command with its flags; name "" is the UI.
type compCommand struct {
	name, desc string
	flags      []compFlag
	args       []string
}

var (
	flagLineRE = regexp.MustCompile(`^  -([A-Za-z0-9][A-Za-z0-9-]*)(?: (\S+))?`)
	choicesRE  = regexp.MustCompile(`^([a-z][a-z0-9-]*(?: \| [a-z][a-z0-9-]*)+)`)
	// fileRE spots a flag whose value is a file: "load items from this
	// file", "this NoSQL Workbench model", "FILE".
	fileRE = regexp.MustCompile(`(?i:\bthis (\w+ )*?(file|model)\b)|\bFILE\b|[A-Z]+\.(json|jsonl|ya?ml)\b`)
	// descEndRE ends a flag's description where its usage goes into
	// details, defaults or examples.
	descEndRE = regexp.MustCompile(`; | \(|, e\.g\.|: `)
)

// commandFlags runs a command with -h and reads its flags from the help it
// prints. ok is false for a command this binary does not route.
func commandFlags(ctx context.Context, name string) (flags []compFlag, ok bool) {
	var out bytes.Buffer
	args := []string{"-h"}
	if name != "" {
		args = []string{name, "-h"}
	}
	err := run(ctx, args, io.Discard, &out)
	if !errors.Is(err, flag.ErrHelp) {
		return nil, false
	}
	lines := strings.Split(out.String(), "\n")
	for i, l := range lines {
		m := flagLineRE.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		f := compFlag{name: m[1], value: m[2] != ""}
		if i+1 < len(lines) {
			usage := strings.TrimSpace(lines[i+1])
			if c := choicesRE.FindString(usage); c != "" && f.value {
				f.choices = strings.Split(c, " | ")
			}
			f.file = f.value && f.choices == nil && fileRE.MatchString(usage)
			f.desc = usage
			if loc := descEndRE.FindStringIndex(usage); loc != nil && loc[0] > 0 {
				f.desc = usage[:loc[0]]
			}
		}
		flags = append(flags, f)
	}
	return flags, true
}

// completionModel gathers every routed command and its flags.
func completionModel(ctx context.Context) []compCommand {
	ui, _ := commandFlags(ctx, "")
	cmds := []compCommand{{name: "", desc: "the terminal UI", flags: ui}}
	for _, c := range completionCommands {
		cc := compCommand{name: c.name, desc: c.desc, args: completionArgs[c.name]}
		switch c.name {
		case "config", "completion", "version", "help":
			// Routed without flags; see runExtra.
		default:
			flags, ok := commandFlags(ctx, c.name)
			if !ok {
				continue
			}
			cc.flags = flags
		}
		cmds = append(cmds, cc)
	}
	return cmds
}

func cmdCompletion(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	const usage = "completion needs a shell: 'dynascope completion bash', 'zsh' or 'fish'."
	if len(args) != 1 {
		return usageError{usage}
	}
	var script string
	switch args[0] {
	case "bash":
		script = bashCompletion(completionModel(ctx))
	case "zsh":
		script = zshCompletion(completionModel(ctx))
	case "fish":
		script = fishCompletion(completionModel(ctx))
	case "-h", "--help":
		fmt.Fprintln(stderr, usage+"\n  bash: source <(dynascope completion bash)   (or save it in ~/.local/share/bash-completion/completions/dynascope)\n  zsh:  dynascope completion zsh > \"${fpath[1]}/_dynascope\"\n  fish: dynascope completion fish > ~/.config/fish/completions/dynascope.fish")
		return nil
	default:
		return usageError{fmt.Sprintf("unknown shell %q; %s", args[0], usage)}
	}
	_, err := io.WriteString(stdout, script)
	return err
}

func bashCompletion(cmds []compCommand) string {
	var b strings.Builder
	b.WriteString("# bash completion for dynascope. Load it with: source <(dynascope completion bash)\n")
	b.WriteString("_dynascope() {\n  local cur prev cmd words flags\n")
	b.WriteString("  cur=\"${COMP_WORDS[COMP_CWORD]}\"\n  prev=\"${COMP_WORDS[COMP_CWORD-1]}\"\n  cmd=\"\"\n")
	b.WriteString("  if [[ ${COMP_CWORD} -gt 1 && ${COMP_WORDS[1]} != -* ]]; then cmd=\"${COMP_WORDS[1]}\"; fi\n")
	// The value of a flag: its choices, or file names.
	b.WriteString("  case \"$cmd:$prev\" in\n")
	for _, c := range cmds {
		for _, f := range c.flags {
			switch {
			case f.choices != nil:
				fmt.Fprintf(&b, "    %s:-%s|%s:--%s) COMPREPLY=($(compgen -W %q -- \"$cur\")); return;;\n", c.name, f.name, c.name, f.name, strings.Join(f.choices, " "))
			case f.file:
				fmt.Fprintf(&b, "    %s:-%s|%s:--%s) COMPREPLY=($(compgen -f -- \"$cur\")); return;;\n", c.name, f.name, c.name, f.name)
			case f.value:
				fmt.Fprintf(&b, "    %s:-%s|%s:--%s) return;;\n", c.name, f.name, c.name, f.name)
			}
		}
	}
	b.WriteString("  esac\n  case \"$cmd\" in\n")
	var names []string
	for _, c := range cmds {
		if c.name != "" {
			names = append(names, c.name)
		}
		var words []string
		for _, f := range c.flags {
			words = append(words, "--"+f.name)
		}
		if c.name == "" {
			fmt.Fprintf(&b, "    \"\") words=%q;;\n", strings.Join(words, " "))
			continue
		}
		words = append(words, c.args...)
		fmt.Fprintf(&b, "    %s) words=%q;;\n", c.name, strings.Join(words, " "))
	}
	b.WriteString("    *) words=\"\";;\n  esac\n")
	fmt.Fprintf(&b, "  if [[ -z $cmd && $cur != -* ]]; then words=%q; fi\n", strings.Join(names, " "))
	b.WriteString("  COMPREPLY=($(compgen -W \"$words\" -- \"$cur\"))\n}\ncomplete -F _dynascope dynascope\n")
	return b.String()
}

// zshQuote makes text safe inside a single-quoted _arguments spec and its
// [description] brackets.
func zshQuote(s string) string {
	r := strings.NewReplacer("'", "", "[", "(", "]", ")", ":", " -", "\\", "")
	return r.Replace(s)
}

func zshCompletion(cmds []compCommand) string {
	var b strings.Builder
	b.WriteString("#compdef dynascope\n# zsh completion for dynascope. Install: dynascope completion zsh > \"${fpath[1]}/_dynascope\"\n\n")
	spec := func(c compCommand) string {
		var parts []string
		for _, f := range c.flags {
			p := fmt.Sprintf("'--%s[%s]", f.name, zshQuote(f.desc))
			switch {
			case f.choices != nil:
				p += fmt.Sprintf(":%s:(%s)", f.name, strings.Join(f.choices, " "))
			case f.file:
				p += fmt.Sprintf(":%s:_files", f.name)
			case f.value:
				p += fmt.Sprintf(":%s: ", f.name)
			}
			parts = append(parts, p+"'")
		}
		if len(c.args) > 0 {
			parts = append(parts, fmt.Sprintf("'1:%s:(%s)'", c.name, strings.Join(c.args, " ")))
		}
		return strings.Join(parts, " \\\n      ")
	}
	b.WriteString("_dynascope() {\n  local -a commands\n  commands=(\n")
	for _, c := range cmds {
		if c.name != "" {
			fmt.Fprintf(&b, "    '%s:%s'\n", c.name, zshQuote(c.desc))
		}
	}
	b.WriteString("  )\n  if (( CURRENT == 2 )) && [[ $words[2] != -* ]]; then\n    _describe 'command' commands\n    return\n  fi\n")
	b.WriteString("  local cmd=$words[2]\n  if [[ $cmd == -* ]]; then cmd=''; fi\n  case $cmd in\n")
	for _, c := range cmds {
		label := c.name
		if label == "" {
			label = "''"
		}
		if c.name != "" {
			fmt.Fprintf(&b, "    %s)\n      shift words; (( CURRENT-- ))\n      _arguments \\\n      %s\n      ;;\n", label, spec(c))
		} else {
			fmt.Fprintf(&b, "    %s)\n      _arguments \\\n      %s\n      ;;\n", label, spec(c))
		}
	}
	b.WriteString("  esac\n}\n\n_dynascope \"$@\"\n")
	return b.String()
}

// fishQuote makes text safe inside a single-quoted fish string.
func fishQuote(s string) string {
	return strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(s)
}

func fishCompletion(cmds []compCommand) string {
	var b strings.Builder
	b.WriteString("# fish completion for dynascope. Install: dynascope completion fish > ~/.config/fish/completions/dynascope.fish\n")
	b.WriteString("complete -c dynascope -f\n")
	var names []string
	for _, c := range cmds {
		if c.name != "" {
			names = append(names, c.name)
			fmt.Fprintf(&b, "complete -c dynascope -n __fish_use_subcommand -a %s -d '%s'\n", c.name, fishQuote(c.desc))
		}
	}
	for _, c := range cmds {
		cond := "__fish_use_subcommand"
		if c.name != "" {
			cond = "'__fish_seen_subcommand_from " + c.name + "'"
		}
		for _, f := range c.flags {
			line := fmt.Sprintf("complete -c dynascope -n %s -l %s", cond, f.name)
			switch {
			case f.choices != nil:
				line += fmt.Sprintf(" -x -a '%s'", strings.Join(f.choices, " "))
			case f.file:
				line += " -r -F"
			case f.value:
				line += " -x"
			}
			fmt.Fprintf(&b, "%s -d '%s'\n", line, fishQuote(f.desc))
		}
		if len(c.args) > 0 {
			fmt.Fprintf(&b, "complete -c dynascope -n \"__fish_seen_subcommand_from %s; and not __fish_seen_subcommand_from %s\" -a '%s'\n", c.name, strings.Join(c.args, " "), strings.Join(c.args, " "))
		}
	}
	_ = names
	return b.String()
}
