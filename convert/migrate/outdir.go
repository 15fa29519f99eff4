package migrate

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/pkg/errors"

	"github.com/xpmigrate/xpmigrate/convert/migrate/tree"
)

// An outStage is where a run with WriteOut builds the converted copy of
// the tree: a hidden directory beside the output directory, renamed into
// its place only when the whole tree is written. A run that fails,
// panics or is cancelled leaves the output directory as it found it
// (absent or empty), so that the next run can write it.
type outStage struct {
	final string // the output directory, absolute
	dir   string // the staging directory beside it
	done  bool
}

// stageOut creates the staging directory beside final (which prepareOut
// checked: absent, or an empty directory).
func stageOut(final string) (*outStage, error) {
	parent := filepath.Dir(final)
	if err := os.MkdirAll(parent, 0o755); err != nil { //nolint:gosec // A tree others read.
		return nil, errors.Wrapf(err, "cannot create the parent of output directory %q", final)
	}
	dir, err := os.MkdirTemp(parent, "."+filepath.Base(final)+".xpmigrate-tmp-")
	if err != nil {
		return nil, errors.Wrapf(err, "cannot create a staging directory beside output directory %q", final)
	}
	return &outStage{final: final, dir: dir}, nil
}

// commit moves the staged tree into the output directory's place. The
// output directory, when it exists, must still be empty.
func (s *outStage) commit() error {
	mode := os.FileMode(0o755)
	if fi, err := os.Stat(s.final); err == nil {
		mode = fi.Mode().Perm()
		// os.Remove refuses a directory that is not empty: a file
		// someone wrote there since the run began is never lost.
		if err := os.Remove(s.final); err != nil {
			return errors.Wrapf(err, "cannot replace output directory %q (did something write to it during the run?)", s.final)
		}
	}
	if err := os.Chmod(s.dir, mode); err != nil {
		return errors.Wrapf(err, "cannot set the mode of staging directory %q", s.dir)
	}
	if err := os.Rename(s.dir, s.final); err != nil {
		return errors.Wrapf(err, "cannot move staging directory %q to output directory %q", s.dir, s.final)
	}
	s.done = true
	return nil
}

// discard removes the staged tree unless commit moved it. It is safe to
// call more than once.
func (s *outStage) discard() {
	if s == nil || s.done {
		return
	}
	s.done = true
	_ = os.RemoveAll(s.dir) // Best effort: a hidden directory beside the output.
}

// finishOut commits the staged tree when every file of the run was
// written and the run was not cancelled; otherwise it discards it, and
// the result says that nothing was written (Mode "none").
func (r *runner) finishOut(res *Result) error {
	if r.stage == nil {
		return nil
	}
	if res.Cancelled || writeFailed(res) {
		r.stage.discard()
		res.Mode = WriteNone.String()
		return nil
	}
	if err := r.stage.commit(); err != nil {
		r.stage.discard()
		res.Mode = WriteNone.String()
		return err
	}
	return nil
}

// writeFailed reports whether a file of the run could not be written.
func writeFailed(res *Result) bool {
	for _, f := range res.Files {
		if f.Status == FileFailed && f.Reason == ReasonWriteError {
			return true
		}
	}
	return false
}

// migrateSafely is migrate, with a panic (a bug in a converter or a
// verifier on unexpected input) turned into the file's failure: the other
// files are migrated and the report is written. With WriteOut the file
// is copied as it is, so that the copy of the tree stays whole.
func (r *runner) migrateSafely(ctx context.Context, f *tree.Scanned) (oc *outcome) {
	defer func() {
		p := recover()
		if p == nil {
			return
		}
		oc = &outcome{emit: true, file: FileResult{Path: f.Rel, Compositions: f.Compositions, Status: FileFailed, Reason: ReasonConversionError,
			Detail: fmt.Sprintf("xpmigrate crashed on this file (a bug: please report it with the file): %v", p)}}
		if r.o.Write == WriteOut && f.Kind != tree.EntrySkipped {
			if err := copyOut(r.outAbs, f.Rel, f.Real, f.Mode); err != nil {
				oc.file.Reason, oc.file.Detail = ReasonWriteError, err.Error()
			}
		}
	}()
	return r.migrate(ctx, f)
}

// prepareStage makes the staging directory of a WriteOut run, where the
// tree is built before it is renamed into place; nothing for other modes.
func (r *runner) prepareStage() error {
	if r.o.Write != WriteOut {
		return nil
	}
	final, err := prepareOut(r.o.Root, r.o.Out)
	if err != nil {
		return err
	}
	if r.stage, err = stageOut(final); err != nil {
		return err
	}
	r.outAbs = r.stage.dir
	return nil
}
