package engine

import (
	"strings"

	"github.com/pkg/errors"

	"github.com/xpmigrate/xpmigrate/environment"
	"github.com/xpmigrate/xpmigrate/internal/crossplane"
	"github.com/xpmigrate/xpmigrate/internal/errkind"
	"github.com/xpmigrate/xpmigrate/internal/jsonobj"
	"github.com/xpmigrate/xpmigrate/internal/xp"
	"github.com/xpmigrate/xpmigrate/render/builtin/environmentconfigs"
	ptfn "github.com/xpmigrate/xpmigrate/render/builtin/patchandtransform"
	"github.com/xpmigrate/xpmigrate/render/pipeline"
)

// Names of the functions xpmigrate runs in process.
const (
	BuiltinPatchAndTransform  = xp.FunctionPatchAndTransform
	BuiltinEnvironmentConfigs = xp.FunctionEnvironmentConfigs
)

// RuntimeBuiltin is the value of the render.crossplane.io/runtime
// annotation that asks for the built-in implementation of a Function.
const RuntimeBuiltin = "Builtin"

// A BuiltinSet maps a built-in function's name to its implementation.
type BuiltinSet map[string]pipeline.Runner

// Builtins returns the built-in functions for a target: on crossplane.V1
// (Crossplane v1.18–v1.20) function-environment-configs v0.6, on V2 v0.7.
func Builtins(target crossplane.Target) BuiltinSet {
	ec := environment.FunctionV06
	if target == crossplane.V2 {
		ec = environment.FunctionV07
	}
	return BuiltinSet{
		BuiltinPatchAndTransform:  ptfn.New(),
		BuiltinEnvironmentConfigs: environmentconfigs.New(ec),
	}
}

// builtinFor names the built-in that implements a Function whose name is fn
// and whose package is pkg ("" when there is no Function object).
func builtinFor(fn, pkg string) string {
	for _, s := range []string{pkg, fn} {
		switch {
		case strings.Contains(s, BuiltinPatchAndTransform):
			return BuiltinPatchAndTransform
		case strings.Contains(s, BuiltinEnvironmentConfigs):
			return BuiltinEnvironmentConfigs
		}
	}
	return ""
}

// resolveFunctions finds a Runner for every step of the pipeline: built-ins
// in process, Development-runtime Functions over gRPC. The returned func
// closes the gRPC connections.
func resolveFunctions(comp map[string]any, fnObjs []map[string]any, builtins BuiltinSet) (pipeline.Functions, func(), error) {
	byName := map[string]map[string]any{}
	for _, f := range fnObjs {
		av, _ := f["apiVersion"].(string)
		k, _ := f["kind"].(string)
		if k != "Function" || !xp.IsFunctionAPIVersion(av) {
			return nil, nil, errkind.InvalidInputf("not a function: %s/%s", k, nameOf(f))
		}
		byName[nameOf(f)] = f
	}

	fns := pipeline.Functions{}
	var closers []func()
	closeAll := func() {
		for _, c := range closers {
			c()
		}
	}
	steps, _ := jsonobj.Value(comp, "spec", "pipeline").([]any)
	for _, s := range steps {
		step, _ := s.(map[string]any)
		fn, _ := jsonobj.LookupString(step, "functionRef", "name")
		if _, done := fns[fn]; done {
			continue
		}
		obj, known := byName[fn]
		if len(fnObjs) > 0 && !known {
			closeAll()
			return nil, nil, errkind.InvalidInputf("unknown Function %q - does it exist in your Functions file?", fn)
		}
		pkg, _ := jsonobj.LookupString(obj, "spec", "package")
		runtime := jsonobj.Annotation(obj, pipeline.AnnotationRuntime)
		switch {
		case runtime == pipeline.RuntimeDevelopment:
			target := jsonobj.Annotation(obj, pipeline.AnnotationRuntimeDevelopmentTarget)
			if target == "" {
				target = pipeline.DefaultDevelopmentTarget
			}
			r, err := pipeline.NewGRPCRunner(target)
			if err != nil {
				closeAll()
				return nil, nil, errors.Wrapf(err, "cannot connect to Function %q at %s", fn, target)
			}
			closers = append(closers, func() { _ = r.Close() })
			fns[fn] = r
		case runtime == "" || runtime == RuntimeBuiltin || runtime == "Docker":
			b := builtinFor(fn, pkg)
			if b == "" || builtins[b] == nil {
				closeAll()
				if !known {
					return nil, nil, errkind.InvalidInputf("unknown Function %q: xpmigrate runs %s and %s in process; give other functions in a Functions file with the annotation %s: %s", fn, BuiltinPatchAndTransform, BuiltinEnvironmentConfigs, pipeline.AnnotationRuntime, pipeline.RuntimeDevelopment)
				}
				return nil, nil, errkind.InvalidInputf("Function %q (%s) is not built in and xpmigrate does not run Docker: serve it locally and annotate it with %s: %s", fn, pkg, pipeline.AnnotationRuntime, pipeline.RuntimeDevelopment)
			}
			fns[fn] = builtins[b]
		default:
			closeAll()
			return nil, nil, errkind.InvalidInputf("Function %q: unknown runtime %q", fn, runtime)
		}
	}
	return fns, closeAll, nil
}
