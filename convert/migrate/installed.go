package migrate

import (
	"context"
	"fmt"
	"strings"

	"github.com/xpmigrate/xpmigrate/convert/migrate/functions"
	"github.com/xpmigrate/xpmigrate/convert/migrate/tree"
	"github.com/xpmigrate/xpmigrate/internal/jsonobj"
	"github.com/xpmigrate/xpmigrate/internal/manifest"
	"github.com/xpmigrate/xpmigrate/internal/xp"
)

// An InstalledFunction is a Function a cluster runs (migrate --cluster
// lists them): its name, which functionRefs use, and its package.
type InstalledFunction struct {
	Name, Package string
}

// A stepRef is a pipeline step's use of a Function.
type stepRef struct {
	// index is the step's index in spec.pipeline, step its name.
	index int
	step  string
	// name is functionRef.name.
	name string
	// repo is the function the step's input is written for
	// (function-patch-and-transform, function-environment-configs), ""
	// when the input does not tell.
	repo string
}

// compSteps are the pipeline steps of one Composition before and after the
// run, and whether the gate (Options.Base) sees it changed.
type compSteps struct {
	before, after []stepRef
	gate          bool
}

// pipelineSteps reads the pipeline steps of a Composition document (item
// of a List document when item >= 0); none for a legacy one, or one that
// does not parse.
func pipelineSteps(doc string, item int) []stepRef {
	if !strings.Contains(doc, "functionRef") {
		return nil
	}
	v, err := manifest.DecodeValue([]byte(doc))
	if err != nil {
		return nil
	}
	obj, _ := v.(map[string]any)
	if item >= 0 {
		items := jsonobj.List(obj, "items")
		if item >= len(items) {
			return nil
		}
		obj, _ = items[item].(map[string]any)
	}
	if mode, _ := jsonobj.LookupString(obj, "spec", "mode"); mode != "Pipeline" {
		return nil
	}
	var out []stepRef
	for i, s := range jsonobj.List(obj, "spec", "pipeline") {
		sm, _ := s.(map[string]any)
		name, _ := jsonobj.LookupString(sm, "functionRef", "name")
		step, _ := sm["step"].(string)
		ref := stepRef{index: i, step: step, name: name}
		av, _ := jsonobj.LookupString(sm, "input", "apiVersion")
		switch xp.Group(av) {
		case xp.GroupPTInput:
			ref.repo = xp.FunctionPatchAndTransform
		case xp.GroupECInput:
			ref.repo = xp.FunctionEnvironmentConfigs
		}
		out = append(out, ref)
	}
	return out
}

// newSteps returns the steps a rewrite added: those whose function the
// Composition did not use before.
func newSteps(s compSteps) []stepRef {
	var out []stepRef
	for _, a := range s.after {
		seen := false
		for _, b := range s.before {
			seen = seen || (a.name == b.name && a.repo == b.repo)
		}
		if !seen {
			out = append(out, a)
		}
	}
	return out
}

// An installer is what installs a Function: a Function manifest or a
// Configuration's dependency, in the tree as the run leaves it, or a
// Function of the cluster.
type installer struct {
	// name is the Function's name: a manifest's metadata.name, the name
	// Crossplane gives a dependency it installs.
	name, pkg string
	// version is a dependency's constraint.
	version    string
	dependency bool
	cluster    bool
	// file, doc, line and at locate it in the tree.
	file      string
	doc, line int
	at        string
}

func (in installer) key() string {
	return fmt.Sprintf("%t\x00%s\x00%d\x00%s\x00%s", in.cluster, in.file, in.doc, in.at, in.name)
}

// what names an installer in messages.
func (in installer) what() string {
	switch {
	case in.cluster:
		return fmt.Sprintf("the cluster's Function %q", in.name)
	case in.dependency:
		return fmt.Sprintf("the dependency %s (%s, installed as %q)", in.at, in.file, in.name)
	}
	return fmt.Sprintf("the Function %q (%s)", in.name, in.file)
}

// installers returns what installs Functions: the tree's Function manifests
// and Configuration dependencies, those the run adds (wiring), and the
// cluster's Functions (Options.ClusterFunctions).
func (r *runner) installers() []installer {
	var out []installer
	for _, f := range r.ix.Functions {
		name, _ := jsonobj.LookupString(f.Obj, "metadata", "name")
		pkg, _ := jsonobj.LookupString(f.Obj, "spec", "package")
		out = append(out, installer{name: name, pkg: pkg, file: f.File, doc: f.Doc, line: r.docLine(f.File, f.Doc)})
	}
	for _, c := range r.ix.Configs {
		for i, d := range jsonobj.List(c.Obj, "spec", "dependsOn") {
			dm, pkg := tree.Dependency(d)
			if pkg == "" {
				continue
			}
			if k, _ := dm["kind"].(string); k != "" && k != "Function" {
				continue
			}
			if _, ok := dm["package"]; !ok {
				if _, ok := dm["function"]; !ok {
					continue
				}
			}
			v, _ := dm["version"].(string)
			out = append(out, installer{name: xp.PackageName(pkg), pkg: pkg, version: v, dependency: true,
				file: c.File, doc: c.Doc, line: r.docLine(c.File, c.Doc), at: fmt.Sprintf("spec.dependsOn[%d].version", i)})
		}
	}
	if r.wiring != nil {
		out = append(out, r.wiring.added...)
	}
	for _, f := range r.o.ClusterFunctions {
		out = append(out, installer{name: f.Name, pkg: f.Package, cluster: true})
	}
	return out
}

// finalSteps returns the pipeline steps a Composition has once the run is
// done: as converted or rewritten when the run writes (or would write)
// it, else as it was.
func finalSteps(c CompositionResult, s compSteps) []stepRef {
	switch c.Status {
	case CompositionConverted, CompositionChanged:
		return s.after
	}
	return s.before
}

// checkFunctions checks, on every run, the Functions the tree's mode
// Pipeline Compositions use (as the run leaves them) against what installs
// Functions (installers): every functionRef must name an installed
// Function (M414), and every installed function-patch-and-transform or
// function-environment-configs they use must be at a release the target
// supports (M409, M410). Findings about an installer go to its file, about
// a Composition to the Composition's.
func (r *runner) checkFunctions(ctx context.Context, outs []*outcome) {
	if ctx.Err() != nil {
		return
	}
	ins := r.installers()
	byRel := map[string]int{}
	for i, oc := range outs {
		if oc != nil {
			byRel[oc.file.Path] = i
		}
	}
	pt, ec := functions.Pins(r.o.Target)
	pinOf := func(repo string) (functions.Pin, bool) {
		switch repo {
		case xp.FunctionPatchAndTransform:
			return pt, true
		case xp.FunctionEnvironmentConfigs:
			return ec, true
		}
		return functions.Pin{}, false
	}
	checked := map[string]bool{}
	checkPin := func(in installer, oc *outcome) {
		p, ok := pinOf(tree.PackageRepo(in.pkg))
		if !ok || checked[in.key()] {
			return
		}
		checked[in.key()] = true
		var fd *Finding
		switch {
		case in.dependency && r.v2Native(): // v2-native: re-pinned (C470).
		case in.dependency:
			fd = p.CheckDependency(in.at, in.pkg, in.version, r.o.Target)
		default:
			fd = p.CheckManifest(in.name, in.pkg, r.o.Target)
		}
		if fd == nil {
			return
		}
		if in.cluster {
			fd.Message = "in the cluster: " + fd.Message
			fd.Document = -1
			oc.file.Diagnostics = append(oc.file.Diagnostics, *fd)
			return
		}
		fd.Document, fd.Line = in.doc, in.line
		r.addFinding(outs, byRel, in.file, *fd)
	}
	for _, oc := range outs {
		if oc == nil || len(oc.steps) != len(oc.comps) {
			continue
		}
		for ci, c := range oc.comps {
			steps := finalSteps(c, oc.steps[ci])
			if len(steps) == 0 {
				continue
			}
			changed := c.Status == CompositionConverted || c.Status == CompositionChanged || oc.steps[ci].gate
			scope := r.ix.ScopeOf(c.File)
			for _, st := range steps {
				var named, same []installer
				for _, in := range ins {
					switch {
					case in.name == st.name:
						named = append(named, in)
					case (st.repo != "" && tree.PackageRepo(in.pkg) == st.repo) || tree.PackageRepo(in.pkg) == st.name:
						same = append(same, in)
					}
				}
				// The pins of what installs the step's function: under its
				// name, and in the package scope by its package (a
				// Configuration installs every dependency).
				for _, in := range named {
					checkPin(in, oc)
				}
				for _, in := range same {
					if !in.cluster && tree.InScope(scope, in.file) && (st.repo == "" || tree.PackageRepo(in.pkg) == st.repo) {
						checkPin(in, oc)
					}
				}
				if len(named) > 0 {
					continue
				}
				if fd := r.unnamedFunction(c, st, same, len(ins) > 0); fd != nil && (fd.Severity != SeverityInfo || changed) {
					oc.file.Diagnostics = append(oc.file.Diagnostics, *fd)
				}
			}
		}
	}
}

// unnamedFunction returns the finding for a step whose functionRef names
// no installed Function: a warning when a Function of the same package is
// installed under another name, or the cluster was read; else info (the
// run cannot tell).
func (r *runner) unnamedFunction(c CompositionResult, st stepRef, same []installer, any bool) *Finding {
	fd := &Finding{Code: "M414", Severity: SeverityWarning, Document: c.Document, Line: c.Line, Composition: c.Name,
		Path: fmt.Sprintf("spec.pipeline[%d].functionRef.name", st.index)}
	if c.Item >= 0 {
		fd.Path = fmt.Sprintf("items[%d].%s", c.Item, fd.Path)
	}
	switch {
	case len(same) > 0:
		fd.Message = fmt.Sprintf("step %q uses the Function %q, but nothing installs a Function of that name: %s installs its package under the name %q; Crossplane runs the step only by that name, so set functionRef.name to %q",
			st.step, st.name, same[0].what(), same[0].name, same[0].name)
	case r.o.ClusterFunctions != nil:
		fd.Message = fmt.Sprintf("step %q uses the Function %q, which neither the cluster nor the tree installs (no Function manifest, no Configuration dependency): install it, or name an installed Function", st.step, st.name)
	default:
		fd.Severity = SeverityInfo
		what := "no Function manifest or Configuration dependency in the tree installs it"
		if any {
			what = "the tree installs other Functions, but none of that name"
		}
		fd.Message = fmt.Sprintf("step %q uses the Function %q, and %s: the run cannot tell whether it is installed, or at which release; add its Function manifest or dependency, or check against the cluster with --cluster", st.step, st.name, what)
	}
	return fd
}

// isFunctionCheck reports whether a finding code is one of the Function
// checks (checkFunctions).
func isFunctionCheck(code string) bool {
	return code == "M409" || code == "M410" || code == "M414"
}
