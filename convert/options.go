package convert

import (
	"slices"
	"strings"

	"github.com/pkg/errors"
	"k8s.io/apimachinery/pkg/util/validation"

	"github.com/xpmigrate/xpmigrate/internal/crossplane"
	"github.com/xpmigrate/xpmigrate/internal/xp"
)

// A NameStrategy says how unnamed resource templates are named.
type NameStrategy string

// Name strategies.
const (
	// NameByIndex names template i `resource-<i>`, as the upstream CLI does.
	NameByIndex NameStrategy = "index"

	// NameByKind names template i `<lower-case base.kind>-<i>`.
	NameByKind NameStrategy = "kind"
)

// Compensations of docs/conversion-fidelity.md#the-compensations that Options.NoCompensate can
// turn off.
const (
	// CompensateIntegerFormat (K1) inserts a convert to int64 before a
	// string Format transform with an integer verb.
	CompensateIntegerFormat = "K1"

	// CompensateECVersion (K2) pins function-environment-configs to v0.6.0
	// for target v1.
	CompensateECVersion = "K2"

	// CompensateCombineFormat (K4) turns %d and %v of a Combine variable
	// that is provably an integer into %.0f.
	CompensateCombineFormat = "K4"

	// CompensateBaseMetadata (K5) removes metadata.name and
	// metadata.namespace from the templates' bases, which native Crossplane
	// ignored and the function keeps.
	CompensateBaseMetadata = "K5"
)

// Compensations are the ids Options.NoCompensate accepts, in order.
var Compensations = []string{CompensateIntegerFormat, CompensateECVersion, CompensateCombineFormat, CompensateBaseMetadata}

// Quirks of native Crossplane that Options.FixQuirks fixes on request, by
// the code of the finding that reports the fix. A fix changes behaviour on
// purpose: the converted Composition lists it in IntendedChangesAnnotation.
const (
	// QuirkIntegerFormat (C325) inserts a convert to int64 before a string
	// Format transform with an integer verb wherever the value can be a
	// number, so %d prints the integer where native printed
	// %!d(float64=N).
	QuirkIntegerFormat = "C325"
)

// Scopes of the composite resources that --target v2 defines
// (Options.XRScope).
const (
	// XRScopeAuto makes every XRD Namespaced, unless a Composition of its
	// type in the input composes a cluster-scoped kind or sets a template's
	// metadata.namespace: then the XRD is not converted and a finding asks
	// to choose (C402). The default for --target v2.
	XRScopeAuto = "auto"

	// XRScopeNamespaced and XRScopeCluster force the v2 XRD's scope.
	XRScopeNamespaced = "namespaced"
	XRScopeCluster    = "cluster"

	// XRScopeLegacy keeps the v1 platform on a v2 control plane: only the
	// Compositions' mode is converted, XRDs stay apiextensions.crossplane.io/v1
	// (LegacyCluster XRs and claims).
	XRScopeLegacy = "legacy"
)

// XRScopes are the valid Options.XRScope values, in the order help texts
// list them.
var XRScopes = []string{XRScopeAuto, XRScopeNamespaced, XRScopeCluster, XRScopeLegacy}

// Naming policies for the v2 XR types (Options.XRNaming).
const (
	// XRNamingDropPrefix keeps the group and drops a leading X from the
	// kind and plural (XPostgreSQLInstance → PostgreSQLInstance). The
	// default.
	XRNamingDropPrefix = "drop-prefix"

	// XRNamingNewGroup drops the X as well and moves the type to
	// Options.XRGroup.
	XRNamingNewGroup = "new-group"
)

// XRNamings are the valid Options.XRNaming values.
var XRNamings = []string{XRNamingDropPrefix, XRNamingNewGroup}

// Quirks lists the codes Options.FixQuirks accepts.
var Quirks = []string{QuirkIntegerFormat}

// Function packages and the versions the converted Compositions are
// written for (docs/semantics/conversion.md#target-profiles).
const (
	PTPackage = xp.PackagePatchAndTransform
	ECPackage = xp.PackageEnvironmentConfigs

	// PTVersion is the function-patch-and-transform release the output is
	// validated against. Any release ≥ v0.5.0 reads it.
	PTVersion = "v0.10.8"

	// ECVersionV1 is the last function-environment-configs release that
	// Crossplane 1.x can feed EnvironmentConfigs to.
	ECVersionV1 = "v0.6.0"

	// ECVersionV2 is the function-environment-configs release for
	// Crossplane v2.
	ECVersionV2 = "v0.7.1"
)

// Default function and step names (the upstream CLI's, so that diffs
// against files it converted stay small).
const (
	DefaultPTFunction = xp.FunctionPatchAndTransform
	DefaultECFunction = xp.FunctionEnvironmentConfigs
	DefaultPTStep     = "patch-and-transform"
	DefaultECStep     = "environment-configs"
)

// Kinds of provider configuration a namespaced managed resource refers to
// (Options.ProviderConfigKind).
const (
	KindClusterProviderConfig = "ClusterProviderConfig"
	KindProviderConfig        = "ProviderConfig"
)

// Options tune a conversion. The zero value converts for target v1 with
// the default names.
type Options struct {
	// Source names the input in diagnostics (a file name, or "-").
	Source string

	// Target is the Crossplane release line; empty means crossplane.V1.
	Target crossplane.Target

	// Phase1 writes the first step of the two-phase rollout instead of the
	// Pipeline Composition: the Resources-mode Composition as it is, with
	// names added to unnamed templates (docs/semantics/conversion.md#constructs-with-no-exact-equivalent N1).
	Phase1 bool

	// NameStrategy names unnamed templates; empty means NameByIndex.
	NameStrategy NameStrategy

	// PTFunction and ECFunction are the functionRef names. Empty means:
	// the name of a Function manifest for that package in the input, else
	// the name Crossplane gives the package as a dependency of
	// Configuration (C305), else the default.
	PTFunction, ECFunction string

	// PTStep and ECStep are the step names; empty means the defaults.
	PTStep, ECStep string

	// Configuration is a Configuration package's crossplane.yaml, whose
	// dependsOn may name the functions (docs/semantics/conversion.md#function-names, step 3).
	Configuration []byte

	// Strict turns warnings into errors. C204 stays a warning when
	// AckUnnamed is set.
	Strict, AckUnnamed bool

	// KeepServerFields keeps status, uid, resourceVersion and the other
	// fields a cluster export adds (docs/semantics/conversion.md#server-fields).
	KeepServerFields bool

	// MoveEnvPatches moves the environment patches of a Pipeline-mode
	// Composition into its patch-and-transform step instead of dropping
	// them (docs/semantics/conversion.md#pipeline-compositions-with-a-native-environment).
	MoveEnvPatches bool

	// FixEnumCase rewrites enum values written in the wrong case
	// (`optional` → `Optional`) instead of refusing them (C312).
	FixEnumCase bool

	// EnvironmentFlagOff converts as if Crossplane ran without
	// --enable-environment-configs: spec.environment and environment
	// patches are dropped, because they never ran (C206).
	EnvironmentFlagOff bool

	// XRStyleV2 adds the advisory findings for XRs that will move to
	// namespaced or cluster scope later (C321, C322). Output is unchanged.
	XRStyleV2 bool

	// NoCompensate turns compensations off by id (K1, K2, K4, K5).
	NoCompensate []string

	// XRDs are CompositeResourceDefinitions (decoded JSON objects) whose
	// schemas tell what type an XR field has; those in the input stream
	// are used too. Without the XRD of a Composition's type, the converter
	// cannot prove that an XR field is always an integer (C212).
	XRDs []map[string]any

	// FixQuirks fixes native quirks on request, by code (Quirks): the
	// output then behaves differently from the legacy Composition, on
	// purpose, and says so in IntendedChangesAnnotation.
	FixQuirks []string

	// EmitFunctions appends pkg.crossplane.io/v1 Function manifests for
	// the functions the output uses, unless the input already has them.
	EmitFunctions bool

	// XRScope is the scope of the XRs that Target v2 defines (XRScopes);
	// empty means XRScopeAuto. XRScopeLegacy converts for a v2 control
	// plane that keeps the v1 definitions. Only valid with Target v2.
	XRScope string

	// XRNaming names the v2 XR types (XRNamings); empty means
	// XRNamingDropPrefix. XRGroup is the group of XRNamingNewGroup, which
	// requires it. Only valid with Target v2 and a scope other than
	// XRScopeLegacy.
	XRNaming, XRGroup string

	// Compositions are Compositions outside the input (decoded JSON
	// objects, e.g. of other files of a tree) whose templates XRScopeAuto
	// reads, with those of the input, to choose an XRD's scope.
	Compositions []map[string]any
	// ProviderCRDs are the CustomResourceDefinitions of providers
	// (decoded JSON objects): with target v2, they tell a managed
	// resource's namespaced twin, its versions and its scope. Without the
	// CRD of a twin, the group rule names it and the version is kept
	// (C445).
	ProviderCRDs []map[string]any
	// ProviderCRDsSource names where ProviderCRDs were read, for the
	// messages that say which source decided a template's scope (C440,
	// C445, C448): "--provider-crds" when empty; a command that reads
	// the CRDs a cluster serves says so ("the cluster's CRDs").
	ProviderCRDsSource string

	// ProviderConfigKind is the kind written into the providerConfigRef
	// of namespaced managed resources: ClusterProviderConfig (the
	// default) or ProviderConfig.
	ProviderConfigKind string

	// UnwrapObjects makes the templates of provider-kubernetes Objects
	// the objects they wrap, where nothing else depends on the wrapper
	// (C456, C457), for target v2.
	UnwrapObjects bool
}

// OptionError is an invalid option.
type OptionError struct{ err error }

func (e *OptionError) Error() string { return e.err.Error() }
func (e *OptionError) Unwrap() error { return e.err }

// IsInvalidOption reports whether err is (or wraps) an invalid option.
func IsInvalidOption(err error) bool {
	var oe *OptionError
	return errors.As(err, &oe)
}

// complete validates the options and fills in the defaults.
func (o Options) complete() (Options, error) {
	t, err := crossplane.ParseTarget(string(o.Target))
	if err != nil {
		return o, &OptionError{err}
	}
	o.Target = t
	switch o.NameStrategy {
	case "":
		o.NameStrategy = NameByIndex
	case NameByIndex, NameByKind:
	default:
		return o, &OptionError{errors.Errorf("unknown name strategy %q (want index or kind)", o.NameStrategy)}
	}
	if o.PTStep == "" {
		o.PTStep = DefaultPTStep
	}
	if o.ECStep == "" {
		o.ECStep = DefaultECStep
	}
	if o.PTStep == o.ECStep {
		return o, &OptionError{errors.Errorf("step names must differ, both are %q", o.PTStep)}
	}
	for _, f := range []struct{ flag, v string }{{"patch-and-transform", o.PTFunction}, {"environment-configs", o.ECFunction}} {
		if f.v == "" {
			continue
		}
		if msgs := validation.IsDNS1123Subdomain(f.v); len(msgs) > 0 {
			return o, &OptionError{errors.Errorf("C106 invalid %s function name %q: %s", f.flag, f.v, strings.Join(msgs, "; "))}
		}
	}
	if err := o.completeV2(); err != nil {
		return o, &OptionError{err}
	}
	for _, k := range o.NoCompensate {
		if !slices.Contains(Compensations, k) {
			return o, &OptionError{errors.Errorf("unknown compensation %q (want %s)", k, strings.Join(Compensations, ", "))}
		}
	}
	switch o.XRScope {
	case "", XRScopeAuto, XRScopeNamespaced, XRScopeCluster, XRScopeLegacy:
	default:
		return o, &OptionError{errors.Errorf("unknown XR scope %q (want auto, namespaced, cluster or legacy)", o.XRScope)}
	}
	switch o.XRNaming {
	case "", XRNamingDropPrefix:
	case XRNamingNewGroup:
		if o.XRGroup == "" {
			return o, &OptionError{errors.New("XR naming new-group needs an XR group")}
		}
	default:
		return o, &OptionError{errors.Errorf("unknown XR naming %q (want drop-prefix or new-group)", o.XRNaming)}
	}
	switch o.ProviderConfigKind {
	case "":
		o.ProviderConfigKind = KindClusterProviderConfig
	case KindClusterProviderConfig, KindProviderConfig:
	default:
		return o, &OptionError{errors.Errorf("unknown provider config kind %q (want %s or %s)", o.ProviderConfigKind, KindClusterProviderConfig, KindProviderConfig)}
	}
	for _, q := range o.FixQuirks {
		if !slices.Contains(Quirks, q) {
			return o, &OptionError{errors.Errorf("unknown quirk %q (want one of %s)", q, strings.Join(Quirks, ", "))}
		}
	}
	return o, nil
}

// completeV2 validates the options of the v2-native conversion and fills
// in their defaults.
func (o *Options) completeV2() error {
	if o.Target != crossplane.V2 {
		switch {
		case o.XRScope != "":
			return errors.Errorf("the XR scope %q needs target v2", o.XRScope)
		case o.XRNaming != "", o.XRGroup != "":
			return errors.New("the XR naming policy and group need target v2")
		}
		return nil
	}
	switch o.XRScope {
	case "":
		o.XRScope = XRScopeAuto
	case XRScopeAuto, XRScopeNamespaced, XRScopeCluster, XRScopeLegacy:
	default:
		return errors.Errorf("unknown XR scope %q (want one of %s)", o.XRScope, strings.Join(XRScopes, ", "))
	}
	if o.XRScope == XRScopeLegacy && (o.XRNaming != "" || o.XRGroup != "") {
		return errors.New("the legacy XR scope keeps the XR types: it takes no XR naming policy or group")
	}
	switch o.XRNaming {
	case "":
		o.XRNaming = XRNamingDropPrefix
	case XRNamingDropPrefix, XRNamingNewGroup:
	default:
		return errors.Errorf("unknown XR naming policy %q (want %s)", o.XRNaming, strings.Join(XRNamings, " or "))
	}
	switch {
	case o.XRNaming == XRNamingNewGroup && o.XRGroup == "":
		return errors.New("the XR naming policy new-group needs an XR group")
	case o.XRNaming != XRNamingNewGroup && o.XRGroup != "":
		return errors.New("an XR group needs the XR naming policy new-group")
	case o.XRGroup != "" && (len(validation.IsDNS1123Subdomain(o.XRGroup)) > 0 || !strings.Contains(o.XRGroup, ".")):
		return errors.Errorf("invalid XR group %q: want a DNS subdomain with at least one dot, such as platform.example.org", o.XRGroup)
	}
	return nil
}

// v2Native reports whether the conversion writes the v2-native platform
// (target v2, a scope other than legacy). Call on completed options.
func (o Options) v2Native() bool { return o.Target == crossplane.V2 && o.XRScope != XRScopeLegacy }

// V2Native reports whether the options ask for the v2-native target
// (target v2, an XR scope other than legacy), which package
// convert/v2native converts (convert.Convert refuses it).
func (o Options) V2Native() bool {
	t, err := crossplane.ParseTarget(string(o.Target))
	return err == nil && t == crossplane.V2 && o.XRScope != XRScopeLegacy
}

func (o Options) compensate(id string) bool { return !slices.Contains(o.NoCompensate, id) }

// ecVersion is the function-environment-configs release for the target.
func (o Options) ecVersion() string {
	if o.Target == crossplane.V2 || !o.compensate(CompensateECVersion) {
		return ECVersionV2
	}
	return ECVersionV1
}
