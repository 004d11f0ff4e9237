// SampleScenarios (in progress)
