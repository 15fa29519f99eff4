//go:build !linux

package plan

import "errors"

// exchange is not atomic here: Write moves the earlier plan aside first.
func exchange(_, _ string) error { return errors.ErrUnsupported }
