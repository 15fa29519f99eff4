//go:build unix

package cluster

import (
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/xpmigrate/xpmigrate/internal/errkind"
	"github.com/xpmigrate/xpmigrate/internal/regularfile"
)

// TestLoadConfigRefusesFIFO: a kubeconfig that is a FIFO, given as
// --kubeconfig or in $KUBECONFIG, is refused as invalid input instead of
// blocking client-go's read.
func TestLoadConfigRefusesFIFO(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "kubeconfig")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("cannot make a FIFO: %v", err)
	}
	cases := map[string]struct {
		reason string
		path   string
		env    string
	}{
		"Flag": {reason: "--kubeconfig names a FIFO.", path: fifo},
		"Env":  {reason: "$KUBECONFIG lists a FIFO.", env: filepath.Join(t.TempDir(), "missing") + string(filepath.ListSeparator) + fifo},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			t.Setenv("KUBECONFIG", tc.env)
			done := make(chan error, 1)
			go func() { _, _, err := LoadConfig(Kubeconfig{Path: tc.path}); done <- err }()
			select {
			case err := <-done:
				if !regularfile.IsNotRegular(err) || !errkind.IsInvalidInput(err) {
					t.Errorf("%s\nLoadConfig: got %v, want an invalid input NotRegularError", tc.reason, err)
				}
			case <-time.After(30 * time.Second):
				t.Fatalf("%s\nLoadConfig: blocked for 30s", tc.reason)
			}
		})
	}
}
