package convert

import (
	"bytes"
	"fmt"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/xpmigrate/xpmigrate/convert/yamledit"
	"github.com/xpmigrate/xpmigrate/internal/manifest"
	"github.com/xpmigrate/xpmigrate/internal/xp"
)

// resolveFunctions picks the functionRef names (docs/semantics/conversion.md#function-names): the
// option, else a Function manifest in the input for that package, else the
// name Crossplane gives the package as a Configuration dependency (C305),
// else the default.
func (r *run) resolveFunctions(docs []*yamledit.Doc, chunks []manifest.Document) {
	r.ptFunction, r.ecFunction = r.o.PTFunction, r.o.ECFunction
	manifests := map[string]string{} // repository name → metadata.name
	for _, d := range docs {
		if d == nil {
			continue
		}
		if name, pkg, ok := functionManifest(d.Top()); ok {
			repo := xp.Repository(pkg)
			if _, seen := manifests[repo]; !seen {
				manifests[repo] = name
			}
		}
	}
	deps := r.configurationDependencies()
	pick := func(set *string, pkg, def string) {
		if *set != "" {
			return
		}
		want := pkg[strings.LastIndexByte(pkg, '/')+1:]
		for repo, name := range manifests {
			if repo == want || strings.HasSuffix(repo, "/"+want) {
				if *set == "" || name < *set { // Several: the smallest name, deterministically.
					*set = name
				}
			}
		}
		if *set != "" {
			return
		}
		for _, dep := range deps {
			if repo := xp.Repository(dep); repo == want || strings.HasSuffix(repo, "/"+want) {
				*set = xp.PackageName(dep)
				r.add(Diagnostic{Code: "C305", Document: -1, Message: fmt.Sprintf("functionRef name %q derived from the Configuration dependency %q, as Crossplane names the package it installs", *set, dep)})
				return
			}
		}
		*set = def
	}
	pick(&r.ptFunction, PTPackage, DefaultPTFunction)
	pick(&r.ecFunction, ECPackage, DefaultECFunction)
}

// functionManifest returns the name and package of a pkg.crossplane.io
// Function manifest.
func functionManifest(n *yaml.Node) (name, pkg string, ok bool) {
	av, _ := yamledit.Str(yamledit.Get(n, "apiVersion"))
	kind, _ := yamledit.Str(yamledit.Get(n, "kind"))
	if !xp.IsFunctionAPIVersion(av) || kind != "Function" {
		return "", "", false
	}
	name, _ = yamledit.Str(yamledit.Get(yamledit.Get(n, "metadata"), "name"))
	pkg, _ = yamledit.Str(yamledit.Get(yamledit.Get(n, "spec"), "package"))
	return name, pkg, name != "" && pkg != ""
}

// configurationDependencies returns the function packages a
// Configuration's crossplane.yaml depends on.
func (r *run) configurationDependencies() []string {
	if len(r.o.Configuration) == 0 {
		return nil
	}
	var out []string
	for _, c := range manifest.Split(r.o.Configuration) {
		d, err := yamledit.Parse(c.Text)
		if err != nil || d == nil {
			continue
		}
		deps := yamledit.Resolve(yamledit.Get(yamledit.Get(d.Top(), "spec"), "dependsOn"))
		if !yamledit.IsSeq(deps) {
			continue
		}
		for _, dep := range deps.Content {
			if f, ok := yamledit.Str(yamledit.Get(dep, "function")); ok && f != "" {
				out = append(out, f)
				continue
			}
			kind, _ := yamledit.Str(yamledit.Get(dep, "kind"))
			if p, ok := yamledit.Str(yamledit.Get(dep, "package")); ok && kind == "Function" {
				out = append(out, p)
			}
		}
	}
	return out
}

// emitFunctions appends Function manifests for the functions the converted
// Compositions use, unless the input already has a Function of that name.
func (r *run) emitFunctions(out *bytes.Buffer, docs []*yamledit.Doc) {
	if r.converted == 0 {
		return
	}
	have := map[string]bool{}
	for _, d := range docs {
		if d == nil {
			continue
		}
		if name, _, ok := functionManifest(d.Top()); ok {
			have[name] = true
		}
	}
	type fn struct{ name, pkg, version string }
	fns := []fn{{r.ptFunction, PTPackage, PTVersion}}
	if r.usedEC {
		fns = append([]fn{{r.ecFunction, ECPackage, r.o.ecVersion()}}, fns...)
	}
	for _, f := range fns {
		if have[f.name] {
			continue
		}
		if out.Len() > 0 && !bytes.HasSuffix(out.Bytes(), []byte("\n")) {
			out.WriteByte('\n')
		}
		fmt.Fprintf(out, "---\napiVersion: "+xp.FunctionAPIVersion+"\nkind: Function\nmetadata:\n  name: %s\nspec:\n  package: %s:%s\n", f.name, f.pkg, f.version)
	}
}
