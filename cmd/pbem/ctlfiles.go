package main

import (
	"fmt"
	"io"
	"os"
	"strings"
)

// fileFlags names, per command, the flags whose value is a file the
// command reads. A command may run in the server (through the control
// socket) or on another node of a cluster (the game's owner), neither of
// which runs in the directory it was typed in, nor has its standard
// input: the command line reads these files where it runs, and sends
// their bytes with the request (ctlRequest.Files).
var fileFlags = map[string][]string{
	"order":   {"file"},
	"referee": {"file"},
	"new":     {"scenario-file"},
}

// argFiles reads the files command's arguments name ('-': standard
// input), keyed by the flag's value as given. Flags stop at "--".
func argFiles(command string, args []string, stdin io.Reader) (map[string][]byte, error) {
	names := fileFlags[command]
	if len(names) == 0 {
		return nil, nil
	}
	var files map[string][]byte
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			break
		}
		if !strings.HasPrefix(a, "-") {
			continue
		}
		name, value, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		found := false
		for _, n := range names {
			found = found || n == name
		}
		if !found {
			continue
		}
		if !hasValue {
			if i+1 >= len(args) {
				return nil, nil // the command's own parsing says what is missing
			}
			i++
			value = args[i]
		}
		if _, done := files[value]; done || value == "" {
			continue
		}
		var b []byte
		var err error
		if value == "-" {
			b, err = io.ReadAll(stdin)
		} else {
			b, err = os.ReadFile(value)
		}
		if err != nil {
			return nil, fmt.Errorf("--%s: %w", name, err)
		}
		if files == nil {
			files = map[string][]byte{}
		}
		files[value] = b
	}
	return files, nil
}

// readArg returns the bytes of the file a command's flag names: those
// the command line sent with the request, or, for a command run where it
// was typed, the file itself. A command handed over (the control socket,
// another node) never reads a file of that name on this machine, nor
// this process's standard input: what the person meant is on theirs, and
// a command forwarded over NATS must not read this node's files.
func (a *app) readArg(name string) ([]byte, error) {
	if b, ok := a.files[name]; ok {
		return b, nil
	}
	if a.inServer {
		return nil, fmt.Errorf("%s: the file was not sent with the command (a 'pbem' older than the server?); give the text instead", name)
	}
	if name == "-" {
		return io.ReadAll(os.Stdin)
	}
	return os.ReadFile(name)
}
