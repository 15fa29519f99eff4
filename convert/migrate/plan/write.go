package plan

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/pkg/errors"
	"sigs.k8s.io/yaml"

	"github.com/xpmigrate/xpmigrate/internal/markdown"
	"github.com/xpmigrate/xpmigrate/internal/shquote"
)

// Files returns every file of the plan directory, by path relative to it:
// README.md, plan.json, definitions.yaml (the v2 XRDs and Compositions)
// and, per XR, its steps' manifests and proof.yaml (what the v2 render
// desires of its managed resources).
func (p *Plan) Files(d Definitions) (map[string][]byte, error) {
	files := map[string][]byte{}
	for _, x := range p.XRs {
		for _, s := range x.Steps {
			for f, objs := range s.objects {
				b, err := stream(objs)
				if err != nil {
					return nil, err
				}
				files[f] = b
			}
		}
		if len(x.rendered) > 0 {
			b, err := stream(x.rendered)
			if err != nil {
				return nil, err
			}
			files[x.Dir+"/proof.yaml"] = b
		}
	}
	defs, err := stream(append(append([]map[string]any{}, d.XRDs...), d.Compositions...))
	if err != nil {
		return nil, err
	}
	files["definitions.yaml"] = defs
	j, err := json.MarshalIndent(p, "", "  ")
	if err != nil {
		return nil, errors.Wrap(err, "cannot encode the plan")
	}
	files["plan.json"] = append(j, '\n')
	files["README.md"] = []byte(p.README())
	return files, nil
}

func stream(objs []map[string]any) ([]byte, error) {
	var b strings.Builder
	for i, o := range objs {
		y, err := yaml.Marshal(o)
		if err != nil {
			return nil, errors.Wrap(err, "cannot encode a manifest")
		}
		if i > 0 {
			b.WriteString("---\n")
		}
		b.Write(y)
	}
	return []byte(b.String()), nil
}

// README is the plan directory's summary.
func (p *Plan) README() string {
	var b strings.Builder
	b.WriteString("# Moving to Crossplane v2-native XRs (xpmigrate plan v2)\n\n")
	b.WriteString("xpmigrate never writes to the cluster: it read the cluster (get and list only) or exported manifests, and wrote this directory. ")
	b.WriteString("You apply each step with kubectl, in order, XR by XR, after its check passes. ")
	b.WriteString("Every step has a read-only precondition check: `xpmigrate plan v2 --check-step N --plan <this directory> --cluster` exits 0 when the cluster allows step N and 3 with the reasons otherwise.\n\n")
	failed := 0
	for _, x := range p.XRs {
		if len(x.Errors) > 0 {
			failed++
		}
	}
	fmt.Fprintf(&b, "%d XRs planned, %d with errors (not movable as planned: see below).\n\n", len(p.XRs), failed)
	b.WriteString("## Before the first step\n\n")
	b.WriteString("Apply the v2 definitions once (new objects next to the v1 ones): `kubectl apply -f definitions.yaml`, and make sure the providers of the namespaced managed resources (`.m.` groups) and their ProviderConfigs run.\n\n")
	b.WriteString("## The steps, per XR\n\n")
	for n := StepProtect; n <= StepDone; n++ {
		fmt.Fprintf(&b, "%d. %s. Check before: %s.\n", n, StepTitles[n], stepProves[n])
	}
	b.WriteString("\nThe old managed resources are orphaned before anything is deleted: deleting them (step 4) leaves their external resources alone, and once unpaused (step 5) their provider only removes its finalizer. The claim's connection Secret is deleted with the claim: the v2 Composition's connection Secret replaces it.\n\n")
	b.WriteString("## XRs\n\n")
	// Names and messages come from the cluster or the export: Markdown
	// text escapes them (one line, no markup) and shell lines quote them.
	md := func(v any) string { return markdown.Escape(fmt.Sprint(v)) }
	check := func(n int, x *XR) string {
		return shquote.Join("xpmigrate", "plan", "v2", "--check-step", fmt.Sprint(n), "--plan", ".", "--cluster", "--xr", x.Dir) + "   # " + StepTitles[n]
	}
	for _, x := range p.XRs {
		fmt.Fprintf(&b, "### %s\n\n", md(x.Dir))
		if x.Claim != nil {
			fmt.Fprintf(&b, "- claim %s, legacy XR %s (Composition %s)\n", md(x.Claim), md(x.Legacy), md(x.Composition))
		} else {
			fmt.Fprintf(&b, "- legacy XR %s (Composition %s)\n", md(x.Legacy), md(x.Composition))
		}
		if x.New.Name != "" {
			fmt.Fprintf(&b, "- new XR %s (Composition %s), %d managed resources adopted\n", md(x.New), md(x.V2Composition), len(x.Resources))
		}
		for _, e := range x.Errors {
			fmt.Fprintf(&b, "- ERROR %s\n", md(e))
		}
		if len(x.Errors) > 0 {
			b.WriteString("\nNo steps: this XR cannot be moved as planned.\n\n")
			continue
		}
		b.WriteString("\n```sh\n")
		for _, s := range x.Steps {
			b.WriteString(check(s.Number, x) + "\n")
			for _, a := range s.Actions {
				b.WriteString(a.Command + "\n")
			}
		}
		b.WriteString(check(StepDone, x) + "\n")
		b.WriteString("```\n\n")
	}
	return b.String()
}
