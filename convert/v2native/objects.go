package v2native

import (
	"fmt"
	"slices"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/xpmigrate/xpmigrate/convert"
	"github.com/xpmigrate/xpmigrate/convert/yamledit"
	"github.com/xpmigrate/xpmigrate/internal/manifest"
	"github.com/xpmigrate/xpmigrate/internal/xp"
)

// The v2-native rewrites of the objects around Compositions (issue 17,
// "Other objects", codes C460–C470). Each is a node-level edit: comments,
// key order and everything else of the document survive.

// Groups and versions of Crossplane v2 the rewrites write.
const (
	groupProtection = "protection.crossplane.io"

	// usageAPIVersionV2 serves both Usage (namespaced) and ClusterUsage.
	usageAPIVersionV2 = groupProtection + "/v1beta1"

	environmentConfigAPIVersionV2 = xp.GroupAPIExtensions + "/v1beta1"

	controllerConfigAPIVersion = xp.GroupPkg + "/v1alpha1"
	runtimeConfigAPIVersion    = xp.GroupPkg + "/v1beta1"
	runtimeConfigKind          = "DeploymentRuntimeConfig"

	// runtimeContainer is the container of a package's Deployment that
	// Crossplane merges a DeploymentRuntimeConfig's container into.
	runtimeContainer = "package-runtime"

	// DefaultRegistry is the registry Crossplane 1.20 resolved a package
	// reference without one against (releases up to 1.19 used
	// xpkg.upbound.io). Crossplane v2 has no default registry.
	DefaultRegistry = "xpkg.crossplane.io"

	// CrossplaneConstraintV2 is the Crossplane version constraint a
	// Configuration gets when its Compositions are v2-native.
	CrossplaneConstraintV2 = ">=v2.0.0"
)

// Version constraints of the functions' dependencies for Crossplane v2
// (migrate checks existing ones against the same ranges).
const (
	PTConstraintV2 = ">=" + convert.PTVersion
	ECConstraintV2 = ">=" + convert.ECVersionV2 + ", <v0.8.0"
)

// An objectEdit is the rewrite of one document by the v2-native object
// rules.
type objectEdit struct {
	d       *convert.Document
	name    string
	changed bool
}

func (e *objectEdit) add(code convert.Code, n *yaml.Node, path, format string, args ...any) {
	d := convert.Diagnostic{Code: code, Document: e.d.Index(), Composition: e.name, Path: path, Message: fmt.Sprintf(format, args...)}
	if n != nil {
		d.Line = e.d.LineBase() + n.Line
	}
	e.d.Add(d)
}

// object rewrites document d when it is one of the objects the v2-native
// target changes (EnvironmentConfig, Usage, ControllerConfig, a package,
// a Configuration's crossplane.yaml), and reports false for any other
// document.
func (x *extension) object(d *convert.Document) bool {
	top := d.Top()
	apiVersion, _ := yamledit.Str(yamledit.Get(top, "apiVersion"))
	kind, _ := yamledit.Str(yamledit.Get(top, "kind"))
	group, version := xp.SplitAPIVersion(apiVersion)
	e := &objectEdit{d: d, name: d.Name()}
	switch {
	case group == xp.GroupAPIExtensions && kind == "EnvironmentConfig":
		e.environmentConfig(top, version)
	case group == xp.GroupAPIExtensions && kind == "Usage":
		e.usage(top, apiVersion)
	case apiVersion == controllerConfigAPIVersion && kind == "ControllerConfig":
		e.controllerConfig(top)
	case group == xp.GroupPkg && (kind == "Provider" || kind == "Function" || kind == "Configuration"):
		e.pkg(top, kind, version)
	case group == xp.GroupMetaPkg && kind == "Configuration":
		e.configuration(top)
	default:
		return false
	}
	d.Write(e.changed, false)
	return true
}

// setScalar sets the string scalar at key of m, in place when it exists
// (its comments stay).
func setScalar(m *yaml.Node, key, value string) {
	if v := yamledit.Get(m, key); v != nil && v.Kind == yaml.ScalarNode {
		quoted := v.Style & (yaml.DoubleQuotedStyle | yaml.SingleQuotedStyle)
		v.Value, v.Tag, v.Style = value, yamledit.TagStr, quoted // A quoted value stays quoted so.
		if quoted == 0 && manifest.IsYAML11Special(value) {
			v.Style = yaml.DoubleQuotedStyle
		}
		return
	}
	yamledit.Set(m, key, yamledit.NewString(value))
}

// environmentConfig: apiextensions.crossplane.io/v1alpha1 → v1beta1, the
// only version Crossplane v2 serves (C460). The schemas are the same.
func (e *objectEdit) environmentConfig(top *yaml.Node, version string) {
	if version != "v1alpha1" {
		return
	}
	setScalar(top, "apiVersion", environmentConfigAPIVersionV2)
	e.changed = true
	e.add("C460", yamledit.Get(top, "apiVersion"), "apiVersion", "EnvironmentConfig moved from %s/v1alpha1 to %s, the only version Crossplane v2 serves", xp.GroupAPIExtensions, environmentConfigAPIVersionV2)
}

// usage: apiextensions.crossplane.io Usage (cluster-scoped, deprecated in
// v2) → protection.crossplane.io ClusterUsage (C461), or the namespaced
// Usage when it concerns namespaced objects (C462). The spec fields (of,
// by, reason, replayDeletion) are the same in all three.
func (e *objectEdit) usage(top *yaml.Node, apiVersion string) {
	_, version := xp.SplitAPIVersion(apiVersion)
	if version != "v1alpha1" && version != "v1beta1" {
		return
	}
	spec := yamledit.Get(top, "spec")
	ns, hasNS := yamledit.Str(yamledit.Get(yamledit.Get(top, "metadata"), "namespace"))
	namespaced := hasNS && ns != ""
	var why []string
	for _, side := range []string{"of", "by"} {
		av, _ := yamledit.Str(yamledit.Get(yamledit.Get(spec, side), "apiVersion"))
		if isNamespacedMRGroup(xp.Group(av)) {
			namespaced = true
			why = append(why, fmt.Sprintf("spec.%s is a namespaced %s", side, av))
		}
	}
	setScalar(top, "apiVersion", usageAPIVersionV2)
	e.changed = true
	if !namespaced {
		setScalar(top, "kind", "ClusterUsage")
		e.add("C461", yamledit.Get(top, "kind"), "kind", "%s Usage replaced by %s ClusterUsage: the objects it protects are cluster-scoped", apiVersion, usageAPIVersionV2)
		return
	}
	if hasNS && ns != "" {
		why = append([]string{fmt.Sprintf("it has metadata.namespace %q", ns)}, why...)
	}
	e.add("C462", yamledit.Get(top, "kind"), "kind", "%s Usage replaced by the namespaced %s Usage (%s); without metadata.namespace it is created in the namespace kubectl applies it to", apiVersion, usageAPIVersionV2, strings.Join(why, ", "))
}

// isNamespacedMRGroup reports whether group is the group of a namespaced
// managed resource of a v2 provider (`<svc>.<provider>.m.<domain>`).
func isNamespacedMRGroup(group string) bool {
	return slices.Contains(strings.Split(group, "."), "m") && strings.Count(group, ".") >= 2
}

// Where each field of a ControllerConfig's spec goes in a
// DeploymentRuntimeConfig (what Crossplane's `beta convert
// deployment-runtime` does): the Deployment's spec, its pod template's
// spec (some renamed), or the package-runtime container.
var (
	ccDeploymentFields = []string{"replicas"}
	ccPodFields        = map[string]string{
		"serviceAccountName": "serviceAccountName",
		"nodeName":           "nodeName",
		"nodeSelector":       "nodeSelector",
		"podSecurityContext": "securityContext",
		"imagePullSecrets":   "imagePullSecrets",
		"affinity":           "affinity",
		"tolerations":        "tolerations",
		"priorityClassName":  "priorityClassName",
		"runtimeClassName":   "runtimeClassName",
		"volumes":            "volumes",
	}
	ccContainerFields = []string{"image", "imagePullPolicy", "ports", "securityContext", "args", "envFrom", "env", "volumeMounts", "resources"}
)

// controllerConfig: pkg.crossplane.io/v1alpha1 ControllerConfig, gone in
// Crossplane v2, → pkg.crossplane.io/v1beta1 DeploymentRuntimeConfig of the
// same name (C463). Every field moves to its place in the Deployment
// template (its node, with its comments); a field without one is dropped
// with C464.
func (e *objectEdit) controllerConfig(top *yaml.Node) {
	setScalar(top, "apiVersion", runtimeConfigAPIVersion)
	setScalar(top, "kind", runtimeConfigKind)
	e.changed = true
	meta := yamledit.Resolve(yamledit.Get(top, "metadata"))
	spec := yamledit.Resolve(yamledit.Get(top, "spec"))
	var moved []string

	deploySpec, podSpec, podMeta := yamledit.NewMap(), yamledit.NewMap(), (*yaml.Node)(nil)
	container := yamledit.NewMap()
	yamledit.Set(container, "name", yamledit.NewString(runtimeContainer))
	if yamledit.IsMap(spec) {
		for i := 0; i+1 < len(spec.Content); i += 2 {
			k, v := spec.Content[i], spec.Content[i+1]
			field := k.Value
			switch {
			case k.Value == "metadata":
				podMeta = v
			case slices.Contains(ccDeploymentFields, k.Value):
				deploySpec.Content = append(deploySpec.Content, k, v)
			case ccPodFields[k.Value] != "":
				if to := ccPodFields[k.Value]; to != k.Value {
					k.Value = to
				}
				podSpec.Content = append(podSpec.Content, k, v)
			case slices.Contains(ccContainerFields, k.Value):
				container.Content = append(container.Content, k, v)
			default:
				e.add("C464", k, "spec."+k.Value, "ControllerConfig field spec.%s has no place in a DeploymentRuntimeConfig and is dropped: carry it over by hand if the provider needs it", k.Value)
				continue
			}
			moved = append(moved, "spec."+field)
		}
	}
	var objLabels, objAnnotations *yaml.Node
	if yamledit.IsMap(meta) {
		objLabels, objAnnotations = yamledit.Get(meta, "labels"), yamledit.Get(meta, "annotations")
	}
	objMeta := func() *yaml.Node {
		if objLabels == nil && objAnnotations == nil {
			return nil
		}
		m := yamledit.NewMap()
		if objLabels != nil {
			yamledit.Set(m, "labels", yamledit.Clone(objLabels))
		}
		if objAnnotations != nil {
			yamledit.Set(m, "annotations", yamledit.Clone(objAnnotations))
		}
		return m
	}

	newSpec := yamledit.NewMap()
	if len(deploySpec.Content)+len(podSpec.Content) > 0 || len(container.Content) > 2 || podMeta != nil || objMeta() != nil {
		dt := yamledit.NewMap()
		if m := objMeta(); m != nil {
			yamledit.Set(dt, "metadata", m)
		}
		yamledit.Set(deploySpec, "selector", yamledit.NewMap())
		tmpl := yamledit.NewMap()
		if podMeta != nil {
			yamledit.Set(tmpl, "metadata", podMeta)
		}
		containers := yamledit.NewSeq()
		if len(container.Content) > 2 {
			containers.Content = append(containers.Content, container)
		}
		yamledit.Set(podSpec, "containers", containers)
		yamledit.Set(tmpl, "spec", podSpec)
		yamledit.Set(deploySpec, "template", tmpl)
		yamledit.Set(dt, "spec", deploySpec)
		yamledit.Set(newSpec, "deploymentTemplate", dt)
	}
	if m := objMeta(); m != nil {
		sa := yamledit.NewMap()
		yamledit.Set(sa, "metadata", m)
		yamledit.Set(newSpec, "serviceAccountTemplate", sa)
		svc := yamledit.NewMap()
		yamledit.Set(svc, "metadata", objMeta())
		yamledit.Set(newSpec, "serviceTemplate", svc)
	}
	if yamledit.IsMap(spec) {
		spec.Content = newSpec.Content
		spec.Style = 0
	} else if len(newSpec.Content) > 0 {
		yamledit.Set(top, "spec", newSpec)
	}
	what := "no fields"
	if len(moved) > 0 {
		what = strings.Join(moved, ", ")
	}
	e.add("C463", yamledit.Get(top, "kind"), "kind", "ControllerConfig replaced by a %s DeploymentRuntimeConfig of the same name (Crossplane v2 has no ControllerConfig); moved: %s; point the packages' spec.runtimeConfigRef at it", runtimeConfigAPIVersion, what)
}

// pkg: a Provider, Function or Configuration package. Functions move to
// pkg.crossplane.io/v1 (C467), spec.controllerConfigRef becomes
// spec.runtimeConfigRef (C465, C466), and a package reference without a
// registry gets DefaultRegistry (C468).
func (e *objectEdit) pkg(top *yaml.Node, kind, version string) {
	if kind == "Function" && version == "v1beta1" {
		setScalar(top, "apiVersion", xp.FunctionAPIVersion)
		e.changed = true
		e.add("C467", yamledit.Get(top, "apiVersion"), "apiVersion", "Function moved from %s to %s", xp.FunctionAPIVersionV1Beta1, xp.FunctionAPIVersion)
	}
	spec := yamledit.Resolve(yamledit.Get(top, "spec"))
	if !yamledit.IsMap(spec) {
		return
	}
	if p := yamledit.Get(spec, "package"); p != nil {
		e.qualify(p, "spec.package")
	}
	if kind == "Configuration" {
		return
	}
	ccr := yamledit.Get(spec, "controllerConfigRef")
	if ccr == nil {
		return
	}
	e.changed = true
	key := yamledit.Key(spec, "controllerConfigRef")
	if yamledit.Has(spec, "runtimeConfigRef") {
		yamledit.Delete(spec, "controllerConfigRef")
		e.add("C466", key, "spec.controllerConfigRef", "spec.controllerConfigRef dropped: the %s also has spec.runtimeConfigRef, which Crossplane v2 reads; check that the DeploymentRuntimeConfig it names has the ControllerConfig's settings", kind)
		return
	}
	name, _ := yamledit.Str(yamledit.Get(ccr, "name"))
	ref := yamledit.NewMap()
	yamledit.Set(ref, "apiVersion", yamledit.NewString(runtimeConfigAPIVersion))
	yamledit.Set(ref, "kind", yamledit.NewString(runtimeConfigKind))
	yamledit.Set(ref, "name", yamledit.NewString(name))
	yamledit.Rename(spec, "controllerConfigRef", "runtimeConfigRef")
	yamledit.Set(spec, "runtimeConfigRef", ref)
	e.add("C465", key, "spec.controllerConfigRef", "spec.controllerConfigRef replaced by spec.runtimeConfigRef to the DeploymentRuntimeConfig %q (converted from the ControllerConfig of that name)", name)
}

// qualify prefixes the package reference in scalar n with DefaultRegistry
// when it names no registry (C468).
func (e *objectEdit) qualify(n *yaml.Node, path string) {
	pkg, ok := yamledit.Str(n)
	if !ok || pkg == "" || hasRegistry(pkg) {
		return
	}
	q := DefaultRegistry + "/" + pkg
	n.Value, n.Style = q, 0
	e.changed = true
	e.add("C468", n, path, "package %q qualified as %q: Crossplane v2 has no default registry; Crossplane 1.20 resolved it against %s, releases up to 1.19 (or --registry) against another registry: check that this is the one the control plane used", pkg, q, DefaultRegistry)
}

// hasRegistry reports whether a package reference names its registry: its
// first path segment has a '.' or a ':' (as go-containerregistry reads
// it).
func hasRegistry(pkg string) bool {
	first, _, ok := strings.Cut(pkg, "/")
	return ok && strings.ContainsAny(first, ".:")
}

// configuration: a Configuration package's crossplane.yaml. Its
// Crossplane constraint admits only v2 (C469), its dependencies on the
// converted Compositions' functions take the v2 releases (C470), and
// package references get a registry (C468).
func (e *objectEdit) configuration(top *yaml.Node) {
	spec := yamledit.Resolve(yamledit.Get(top, "spec"))
	if spec == nil {
		spec = yamledit.NewMap()
		yamledit.Set(top, "spec", spec)
	}
	if !yamledit.IsMap(spec) {
		return
	}
	cp := yamledit.Resolve(yamledit.Get(spec, "crossplane"))
	old, _ := yamledit.Str(yamledit.Get(cp, "version"))
	if !onlyV2(old) {
		switch {
		case yamledit.IsMap(cp):
			setScalar(cp, "version", CrossplaneConstraintV2)
		default:
			m := yamledit.NewMap()
			yamledit.Set(m, "version", yamledit.NewString(CrossplaneConstraintV2))
			yamledit.Insert(spec, 0, "crossplane", m)
		}
		e.changed = true
		was := "none"
		if old != "" {
			was = fmt.Sprintf("%q", old)
		}
		e.add("C469", yamledit.Get(yamledit.Get(spec, "crossplane"), "version"), "spec.crossplane.version", "Crossplane version constraint set to %q (was %s): the package's v2-native definitions need Crossplane v2", CrossplaneConstraintV2, was)
	}
	deps := yamledit.Resolve(yamledit.Get(spec, "dependsOn"))
	if !yamledit.IsSeq(deps) {
		return
	}
	for j, dep := range deps.Content {
		at := fmt.Sprintf("spec.dependsOn[%d]", j)
		var pkgNode *yaml.Node
		isFunction := false
		for _, k := range []string{"provider", "function", "configuration", "package"} {
			if n := yamledit.Get(dep, k); n != nil {
				pkgNode = n
				kind, _ := yamledit.Str(yamledit.Get(dep, "kind"))
				isFunction = k == "function" || (k == "package" && kind == "Function")
				e.qualify(n, at+"."+k)
				break
			}
		}
		if !isFunction {
			continue
		}
		pkg, _ := yamledit.Str(pkgNode)
		want := ""
		switch repo := xp.Repository(pkg); {
		case repo == convert.PTPackage || strings.HasSuffix(repo, "/"+xp.FunctionPatchAndTransform):
			want = PTConstraintV2
		case repo == convert.ECPackage || strings.HasSuffix(repo, "/"+xp.FunctionEnvironmentConfigs):
			want = ECConstraintV2
		default:
			continue
		}
		v, _ := yamledit.Str(yamledit.Get(dep, "version"))
		if v == want {
			continue
		}
		setScalar(dep, "version", want)
		e.changed = true
		e.add("C470", yamledit.Get(dep, "version"), at+".version", "dependency on %s pinned to %q for Crossplane v2 (was %q)", xp.Repository(pkg), want, v)
	}
}

// onlyV2 reports whether a Crossplane version constraint admits only
// Crossplane v2 or later: a single lower bound `>=vN…` or `>vN…` with
// N ≥ 2, or `^vN…` / `~vN…` with N ≥ 2.
func onlyV2(c string) bool {
	c = strings.TrimSpace(c)
	if c == "" || strings.ContainsAny(c, ",|<") || strings.Contains(c, " ") && !strings.HasPrefix(c, ">= ") {
		return false
	}
	for _, op := range []string{">=", ">", "^", "~", "="} {
		if rest, ok := strings.CutPrefix(c, op); ok {
			c = strings.TrimSpace(rest)
			break
		}
	}
	c = strings.TrimPrefix(c, "v")
	major, _, _ := strings.Cut(c, ".")
	if major == "" || strings.Trim(major, "0123456789") != "" {
		return false
	}
	return len(major) > 1 || major >= "2"
}
