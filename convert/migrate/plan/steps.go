package plan

import (
	"fmt"
	"slices"
	"strings"

	"github.com/xpmigrate/xpmigrate/internal/jsonobj"
	"github.com/xpmigrate/xpmigrate/internal/shquote"
	"github.com/xpmigrate/xpmigrate/internal/xp"
)

// Verbs of an Action.
const (
	// VerbApply: server-side apply of every object of File with the step's
	// field manager, forcing conflicts (the objects exist, the step's
	// check says so, except the ones step 2 creates).
	VerbApply = "apply"
	// VerbUnpause: remove the crossplane.io/paused annotation of every
	// object File names (kubectl annotate, which never creates one).
	VerbUnpause = "unpause"
	// VerbDelete: delete every object File names, without waiting.
	VerbDelete = "delete"
	// VerbWait: wait for the new XR to be Ready.
	VerbWait = "wait"
)

// An Action is one kubectl command of a step.
type Action struct {
	Verb string `json:"verb"`
	// File is relative to the plan directory.
	File    string `json:"file,omitempty"`
	Command string `json:"command"`
}

// Steps of a move.
const (
	StepProtect = 1 + iota
	StepAdopt
	StepResume
	StepRetire
	StepRelease
	// StepDone is not a step: its check says the move is complete.
	StepDone
)

// StepTitles are the steps' one-line titles, by number.
var StepTitles = map[int]string{
	StepProtect: "pause the old claim and XR; orphan and pause every managed resource",
	StepAdopt:   "create the namespaced managed resources (external names copied, no Delete) and the new XR, paused",
	StepResume:  "unpause the new XR and wait until it is Ready",
	StepRetire:  "restore the twins' management policies; delete the old claim, XR and managed resources (orphaned)",
	StepRelease: "unpause the deleted old objects so that their controllers let them go",
	StepDone:    "the move is complete",
}

// stepProves says what each step's precondition check establishes.
var stepProves = map[int]string{
	StepProtect: "the old claim, XR and every managed resource exist and every managed resource has the external name and composition resource name the plan copies",
	StepAdopt:   "the old claim and XR are paused, every old managed resource is paused and cannot delete its external resource (deletionPolicy Orphan, or management policies without Delete), the v2 XR type is served and the v2 Composition exists, no twin exists that another XR controls, and every twin has the parameters (spec.forProvider, spec.initProvider) of the live managed resource it replaces",
	StepResume:  "the old side is still paused and orphaned; the new XR exists, paused; every twin exists with the old external name and management policies without Delete, controlled by no other XR",
	StepRetire:  "the new XR is unpaused and Ready and controls every twin (owner reference and spec.crossplane.resourceRefs), each twin still has the old external name, and the old managed resources are still paused and orphaned",
	StepRelease: "every old object is being deleted (or gone), every old managed resource is orphaned, and the new XR still controls every twin",
	StepDone:    "the old objects are gone, the new XR is Ready and controls every twin, and every twin has its intended management policies",
}

func (x *XR) file(n int, what string) string { return fmt.Sprintf("%s/%d-%s.yaml", x.Dir, n, what) }

// steps fills x.Steps with their manifests.
func (x *XR) steps(c Composite, fm string) {
	// Every piece of data in a command goes through shquote.
	apply := func(n int, file string) Action {
		return Action{Verb: VerbApply, File: file, Command: shquote.Join("kubectl", "apply", "--server-side", "--force-conflicts", fmt.Sprintf("--field-manager=%s-step%d", fm, n), "-f", file)}
	}
	unpause := func(file string) Action {
		return Action{Verb: VerbUnpause, File: file, Command: shquote.Join("kubectl", "annotate", "-f", file, xp.AnnotationPaused+"-")}
	}

	// 1: pause and orphan.
	var protect []map[string]any
	for _, o := range []map[string]any{c.Claim, c.XR} {
		if o != nil {
			protect = append(protect, partial(o, map[string]any{"metadata": map[string]any{"annotations": map[string]any{xp.AnnotationPaused: "true"}}}))
		}
	}
	for _, cd := range c.Composed {
		if cd.Object == nil {
			continue
		}
		spec := map[string]any{"deletionPolicy": "Orphan"}
		if p := strs(jsonobj.Value(cd.Object, "spec", "managementPolicies")); len(p) > 0 && !slices.Equal(p, []string{"*"}) && slices.Contains(p, "Delete") {
			spec["managementPolicies"] = toAny(withoutDelete(p))
		}
		protect = append(protect, partial(cd.Object, map[string]any{
			"metadata": map[string]any{"annotations": map[string]any{xp.AnnotationPaused: "true"}},
			"spec":     spec,
		}))
	}
	f1 := x.file(StepProtect, "protect")
	x.Steps = append(x.Steps, Step{Number: StepProtect, Actions: []Action{apply(StepProtect, f1)}, objects: map[string][]map[string]any{f1: protect}})

	// 2: twins and the new XR, paused.
	f2 := x.file(StepAdopt, "adopt")
	adopt := slices.Concat(x.twins, []map[string]any{x.newXR})
	x.Steps = append(x.Steps, Step{Number: StepAdopt, Actions: []Action{apply(StepAdopt, f2)}, objects: map[string][]map[string]any{f2: adopt}})

	// 3: unpause the new XR and wait.
	f3 := x.file(StepResume, "resume")
	g, _ := xp.SplitAPIVersion(x.New.APIVersion)
	waitArgs := []string{"kubectl", "wait", "--for=condition=Ready", "--timeout=10m", strings.ToLower(x.New.Kind) + "." + g + "/" + x.New.Name}
	if x.New.Namespace != "" {
		waitArgs = append(waitArgs, "-n", x.New.Namespace)
	}
	wait := shquote.Join(waitArgs...)
	x.Steps = append(x.Steps, Step{Number: StepResume, Actions: []Action{unpause(f3), {Verb: VerbWait, Command: wait}},
		objects: map[string][]map[string]any{f3: {refObject(x.New)}}})

	// 4: intended policies; delete the old objects.
	f4 := x.file(StepRetire, "restore")
	f4d := x.file(StepRetire, "delete")
	var restore, old []map[string]any
	for _, r := range x.Resources {
		restore = append(restore, partial(refObject(r.Twin), map[string]any{"spec": map[string]any{"managementPolicies": toAny(r.IntendedPolicies)}}))
	}
	for _, cd := range c.Composed {
		old = append(old, refObject(Ref{APIVersion: cd.APIVersion, Kind: cd.Kind, Name: cd.Name}))
	}
	old = append(old, refObject(x.Legacy))
	if x.Claim != nil {
		old = append(old, refObject(*x.Claim))
	}
	x.Steps = append(x.Steps, Step{Number: StepRetire, Actions: []Action{
		apply(StepRetire, f4),
		{Verb: VerbDelete, File: f4d, Command: shquote.Join("kubectl", "delete", "--wait=false", "-f", f4d)},
	}, objects: map[string][]map[string]any{f4: restore, f4d: old}})

	// 5: release the deleted old objects.
	f5 := x.file(StepRelease, "release")
	x.Steps = append(x.Steps, Step{Number: StepRelease, Actions: []Action{unpause(f5)}, objects: map[string][]map[string]any{f5: old}})

	for i := range x.Steps {
		x.Steps[i].Title = StepTitles[x.Steps[i].Number]
		x.Steps[i].Proves = stepProves[x.Steps[i].Number]
	}
}

// partial is the object o names (apiVersion, kind, name, namespace) with
// the fields of body.
func partial(o map[string]any, body map[string]any) map[string]any {
	p := refObject(refOf(o))
	return jsonobj.MergePatch(p, body)
}

func refObject(r Ref) map[string]any {
	md := map[string]any{"name": r.Name}
	if r.Namespace != "" {
		md["namespace"] = r.Namespace
	}
	return map[string]any{"apiVersion": r.APIVersion, "kind": r.Kind, "metadata": md}
}
