package xp

// ReferenceObject returns an object reference as Crossplane's typed
// references write it (every member omitempty): apiVersion, kind,
// namespace and name, each only when it is not empty. The XR keeps its
// composed resources (spec.resourceRefs) and its EnvironmentConfigs
// (spec.environmentConfigRefs) so.
func ReferenceObject(apiVersion, kind, namespace, name string) map[string]any {
	o := make(map[string]any, 4)
	if apiVersion != "" {
		o["apiVersion"] = apiVersion
	}
	if kind != "" {
		o["kind"] = kind
	}
	if namespace != "" {
		o["namespace"] = namespace
	}
	if name != "" {
		o["name"] = name
	}
	return o
}
