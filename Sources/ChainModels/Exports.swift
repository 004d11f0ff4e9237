// A ported HandyJSON model file replaces `import HandyJSON` with
// `import ChainModels` and nothing else; the front ends come with it.
@_exported import AFStyle
@_exported import Chain
