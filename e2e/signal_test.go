//go:build e2e && unix

package e2e

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
)

func init() {
	commands["mkfifo"] = cmdMkfifo
	commands["interrupt"] = cmdInterrupt
}

// mkfifo name...: make FIFOs.
func cmdMkfifo(ts *testscript.TestScript, neg bool, args []string) {
	noNeg(ts, neg, "mkfifo")
	for _, a := range args {
		ts.Check(syscall.Mkfifo(ts.MkAbs(a), 0o600))
	}
}

// interrupt [-stdin-fifo=name] program [args...]: start the program in the
// current directory, send it SIGINT after 300ms, and fail unless it has
// ended 10s later. With -stdin-fifo its stdin is a new FIFO, opened read
// and write so that neither side waits and the reader never sees the end.
// Its stdout and stderr are the command's.
func cmdInterrupt(ts *testscript.TestScript, neg bool, args []string) {
	noNeg(ts, neg, "interrupt")
	fifo := ""
	if len(args) > 0 && strings.HasPrefix(args[0], "-stdin-fifo=") {
		fifo, args = strings.TrimPrefix(args[0], "-stdin-fifo="), args[1:]
	}
	if len(args) == 0 {
		ts.Fatalf("usage: interrupt [-stdin-fifo=name] program [args...]")
	}
	prog, err := lookPath(ts, args[0])
	ts.Check(err)
	cmd := exec.Command(prog, args[1:]...)
	cmd.Dir = ts.MkAbs(".")
	cmd.Env = scriptEnv(ts)
	if fifo != "" {
		p := ts.MkAbs(fifo)
		ts.Check(syscall.Mkfifo(p, 0o600))
		f, err := os.OpenFile(p, os.O_RDWR, 0)
		ts.Check(err)
		defer f.Close()
		cmd.Stdin = f
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	// A child left behind by a killed program must not hold the test.
	cmd.WaitDelay = 2 * time.Second
	ts.Check(cmd.Start())
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	time.Sleep(300 * time.Millisecond) // Let it start; not an assertion.
	_ = cmd.Process.Signal(os.Interrupt)
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		_ = cmd.Process.Kill()
		<-done
		ts.Fatalf("%s: still running 10s after SIGINT; stderr:\n%s", strings.Join(args, " "), stderr.String())
	}
	_, _ = ts.Stdout().Write(stdout.Bytes())
	_, _ = ts.Stderr().Write(stderr.Bytes())
}

// lookPath finds an executable in the script's PATH.
func lookPath(ts *testscript.TestScript, name string) (string, error) {
	if strings.ContainsRune(name, filepath.Separator) {
		return ts.MkAbs(name), nil
	}
	for _, dir := range filepath.SplitList(ts.Getenv("PATH")) {
		p := filepath.Join(dir, name)
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0 {
			return p, nil
		}
	}
	return "", &exec.Error{Name: name, Err: exec.ErrNotFound}
}
