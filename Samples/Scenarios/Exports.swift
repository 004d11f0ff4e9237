// The sample programs import only this module: it brings the builder (and with it the core
// and the cache) and the sample server along, so each `main` stays a few lines long.
@_exported import Chain
@_exported import SampleServer
