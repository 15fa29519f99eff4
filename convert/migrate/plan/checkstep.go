package plan

import (
	"context"

	"github.com/pkg/errors"

	"github.com/xpmigrate/xpmigrate/internal/errkind"
)

// A CheckRequest is one `plan v2 --check-step` run.
type CheckRequest struct {
	// Plan is the plan directory (Load).
	Plan string
	// Objects opens the store the step is checked against (the cluster
	// or the exports), once the plan is read.
	Objects func() (Objects, error)
	// Step is the step to check, StepProtect to StepDone.
	Step int
	// XR, when not empty, checks only the XR of this plan subdirectory
	// (XR.Dir).
	XR string
}

// A StepCheck is the result of checking a step for the XRs of a plan, in
// the plan's order.
type StepCheck struct {
	Step int
	XRs  []XRCheck
}

// An XRCheck is one XR's check: why the step is not allowed for it,
// nothing when it is.
type XRCheck struct {
	Dir     string
	Reasons []string
}

// Allowed reports whether the step is allowed for the XR.
func (c XRCheck) Allowed() bool { return len(c.Reasons) == 0 }

// CheckStep checks, read-only, that the store allows step r.Step of the
// plan in r.Plan for each of its XRs (or the one r.XR names). An
// unreadable plan, or an r.XR the plan has no XR of, is invalid input.
// When a check cannot run it returns the XRs checked so far and the error.
func CheckStep(ctx context.Context, r CheckRequest) (*StepCheck, error) {
	p, err := Load(r.Plan)
	if err != nil {
		return nil, errkind.InvalidInput(err)
	}
	objs, err := r.Objects()
	if err != nil {
		return nil, err
	}
	res := &StepCheck{Step: r.Step}
	for _, x := range p.XRs {
		if r.XR != "" && x.Dir != r.XR {
			continue
		}
		reasons, err := Check(ctx, objs, x, r.Step)
		if err != nil {
			return res, errors.Wrapf(err, "cannot check %s", x.Dir)
		}
		res.XRs = append(res.XRs, XRCheck{Dir: x.Dir, Reasons: reasons})
	}
	if len(res.XRs) == 0 {
		return res, errkind.InvalidInputf("the plan has no XR %q", r.XR)
	}
	return res, nil
}

// Blocked is the number of XRs the step is not allowed for.
func (c *StepCheck) Blocked() int {
	n := 0
	for _, x := range c.XRs {
		if !x.Allowed() {
			n++
		}
	}
	return n
}

// Err is a findings error (errkind) when the step is not allowed for some
// XR, else nil.
func (c *StepCheck) Err() error {
	if b := c.Blocked(); b > 0 {
		return errkind.Findingsf("step %d is not allowed for %d of %d XRs", c.Step, b, len(c.XRs))
	}
	return nil
}

// WithErrors is the number of XRs whose move has errors (see Failed).
func (p *Plan) WithErrors() int {
	n := 0
	for _, x := range p.XRs {
		if len(x.Errors) > 0 {
			n++
		}
	}
	return n
}

// Err is a findings error (errkind) when some XR's move has errors, else
// nil.
func (p *Plan) Err() error {
	if n := p.WithErrors(); n > 0 {
		return errkind.Findingsf("%d of %d XRs cannot be moved as planned", n, len(p.XRs))
	}
	return nil
}
