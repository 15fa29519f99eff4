package gaps

import (
	"github.com/pkg/errors"

	"github.com/xpmigrate/xpmigrate/environment"
	"github.com/xpmigrate/xpmigrate/patchandtransform/function"
	"github.com/xpmigrate/xpmigrate/render/pipeline"
)

// The rules tell the engines' failures apart by their types (errors.As),
// never by their text: a reworded message must not turn a known gap into
// an unexplained difference. A function's fatal result crosses the
// RunFunction protocol as text alone; the function's own package reads it
// back (function.ParseFatal, environment.ParseLabelValueFatal).

// errorAs returns the first error of type E in err's chain.
func errorAs[E error](err error) (E, bool) {
	var e E
	if err == nil {
		return e, false
	}
	return e, errors.As(err, &e)
}

// fatalResult returns the pipeline step's fatal result err carries.
func fatalResult(err error) (*pipeline.FatalResultError, bool) {
	return errorAs[*pipeline.FatalResultError](err)
}

// ptFatal returns the failing patch of the converted Composition's
// function-patch-and-transform step that err carries as a fatal result.
func (c *ruleContext) ptFatal(err error) (function.Fatal, bool) {
	f, ok := fatalResult(err)
	if !ok || f.Step != c.PipelineModel.PTStepName {
		return function.Fatal{}, false
	}
	return function.ParseFatal(f.Message)
}

// ecFatal returns the fatal result of the converted Composition's
// function-environment-configs step that err carries.
func (c *ruleContext) ecFatal(err error) (*pipeline.FatalResultError, bool) {
	f, ok := fatalResult(err)
	if !ok || f.Step != c.PipelineModel.ECStepName {
		return nil, false
	}
	return f, true
}

// environmentFailed reports whether the pipeline failed in its
// environment: selecting EnvironmentConfigs, or an environment patch.
func (c *ruleContext) environmentFailed(err error) bool {
	if _, ok := c.ecFatal(err); ok {
		return true
	}
	f, ok := c.ptFatal(err)
	return ok && f.Resource == ""
}

// selectError returns the native environment's failed selection err
// carries.
func selectError(err error) (*environment.SelectError, bool) {
	return errorAs[*environment.SelectError](err)
}

// notFound reports whether err's chain holds a field path that was not
// found.
func notFound(err error) bool {
	nf, ok := errorAs[interface {
		error
		IsNotFound() bool
	}](err)
	return ok && nf.IsNotFound()
}
