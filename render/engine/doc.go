// Package engine is what `xpmigrate render` runs: it takes the objects
// crossplane render takes (an XR, a Composition, optionally Functions,
// observed and extra resources, context), picks the legacy composer for a
// `mode: Resources` Composition or the pipeline engine for a `mode:
// Pipeline` one, runs the built-in functions in process and any other
// function over gRPC, and can simulate several reconciles in a row.
//
//	res, err := engine.Render(ctx, engine.Request{XR: xr, Composition: comp}, engine.Options{Loops: 2})
//	if err != nil {
//		return err
//	}
//	_ = render.Print(os.Stdout, res.Outcome, render.PrintOptions{})
package engine
