package testutil

import (
	"os/exec"
	"path/filepath"

	"github.com/pkg/errors"
)

// BuildXpmigrate builds the xpmigrate command into dir, for the e2e tests
// that run the binary, and returns its path.
func BuildXpmigrate(dir string) (string, error) {
	bin := filepath.Join(dir, "xpmigrate")
	//nolint:gosec // A test helper: builds this module's command into a directory the test chose.
	if out, err := exec.Command("go", "build", "-o", bin, "github.com/xpmigrate/xpmigrate/cmd/xpmigrate").CombinedOutput(); err != nil {
		return "", errors.Wrapf(err, "go build: %s", out)
	}
	return bin, nil
}
