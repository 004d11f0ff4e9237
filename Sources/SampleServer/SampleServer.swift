// SampleServer module (in progress)
