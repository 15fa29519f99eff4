package xp

import "github.com/xpmigrate/xpmigrate/internal/logsafe"

// EscapeWorkflowData escapes a GitHub workflow command's message: see
// logsafe.WorkflowData.
func EscapeWorkflowData(s string) string {
	return logsafe.WorkflowData(s)
}

// EscapeWorkflowProperty escapes a GitHub workflow command's property value
// (file, title, …): see logsafe.WorkflowProperty.
func EscapeWorkflowProperty(s string) string {
	return logsafe.WorkflowProperty(s)
}
