package plan

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/pkg/errors"
	"sigs.k8s.io/yaml"

	"github.com/xpmigrate/xpmigrate/internal/atomicfile"
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

// Write writes files below dir. Nothing is written unless every file can
// be: dir and each subdirectory must be (or become) a directory that takes
// a new file, and no file may be a directory. Each file is replaced
// atomically.
func Write(dir string, files map[string][]byte) error {
	paths := make([]string, 0, len(files))
	for f := range files {
		paths = append(paths, f)
	}
	sort.Strings(paths)
	dirs := map[string]bool{}
	for _, f := range paths {
		for d := filepath.Dir(f); d != "."; d = filepath.Dir(d) {
			dirs[d] = true
		}
	}
	if err := writableDir(dir); err != nil {
		return err
	}
	for d := range dirs {
		full := filepath.Join(dir, d)
		fi, err := os.Stat(full)
		switch {
		case err == nil && !fi.IsDir():
			return errors.Errorf("cannot write the plan: %q is not a directory", full)
		case err == nil:
			if err := atomicfile.Probe(full, "plan"); err != nil {
				return errors.Wrapf(err, "cannot write the plan in %q", full)
			}
		case !os.IsNotExist(err):
			return errors.Wrapf(err, "cannot write the plan in %q", full)
		}
	}
	for _, f := range paths {
		full := filepath.Join(dir, f)
		if fi, err := os.Stat(full); err == nil && fi.IsDir() {
			return errors.Errorf("cannot write the plan: %q is a directory", full)
		}
	}
	for _, f := range paths {
		full := filepath.Join(dir, f)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil { //nolint:gosec // A plan others read and apply.
			return errors.Wrapf(err, "cannot create %q", filepath.Dir(full))
		}
		if err := atomicfile.Write(full, files[f], 0o644, nil); err != nil {
			return errors.Wrapf(err, "cannot write %q", full)
		}
	}
	return nil
}

// writableDir makes sure dir is, or can be created as, a directory that
// takes new files (creating it when its parent exists).
func writableDir(dir string) error {
	fi, err := os.Stat(dir)
	if os.IsNotExist(err) {
		parent := filepath.Dir(dir)
		if pfi, perr := os.Stat(parent); perr != nil || !pfi.IsDir() {
			return errors.Errorf("cannot write the plan: directory %q does not exist", parent)
		}
		if err := atomicfile.Probe(parent, filepath.Base(dir)); err != nil {
			return errors.Wrapf(err, "cannot write the plan in %q", parent)
		}
		return errors.Wrapf(os.Mkdir(dir, 0o755), "cannot create %q", dir) //nolint:gosec // A plan others read and apply.
	}
	if err != nil {
		return errors.Wrapf(err, "cannot write the plan in %q", dir)
	}
	if !fi.IsDir() {
		return errors.Errorf("cannot write the plan: %q is not a directory", dir)
	}
	return errors.Wrapf(atomicfile.Probe(dir, "plan"), "cannot write the plan in %q", dir)
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
	for _, x := range p.XRs {
		fmt.Fprintf(&b, "### %s\n\n", x.Dir)
		if x.Claim != nil {
			fmt.Fprintf(&b, "- claim %s, legacy XR %s (Composition %s)\n", x.Claim, x.Legacy, x.Composition)
		} else {
			fmt.Fprintf(&b, "- legacy XR %s (Composition %s)\n", x.Legacy, x.Composition)
		}
		if x.New.Name != "" {
			fmt.Fprintf(&b, "- new XR %s (Composition %s), %d managed resources adopted\n", x.New, x.V2Composition, len(x.Resources))
		}
		for _, e := range x.Errors {
			fmt.Fprintf(&b, "- ERROR %s\n", e)
		}
		if len(x.Errors) > 0 {
			b.WriteString("\n")
			continue
		}
		b.WriteString("\n```sh\n")
		for _, s := range x.Steps {
			fmt.Fprintf(&b, "xpmigrate plan v2 --check-step %d --plan . --cluster --xr %s   # %s\n", s.Number, x.Dir, s.Title)
			for _, a := range s.Actions {
				b.WriteString(a.Command + "\n")
			}
		}
		fmt.Fprintf(&b, "xpmigrate plan v2 --check-step %d --plan . --cluster --xr %s   # %s\n", StepDone, x.Dir, StepTitles[StepDone])
		b.WriteString("```\n\n")
	}
	return b.String()
}
