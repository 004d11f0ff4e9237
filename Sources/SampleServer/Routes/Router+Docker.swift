/// A small, fixed subset of the Docker Engine API (version 1.43), for the Unix-socket sample:
/// the shape of what `/var/run/docker.sock` answers, with the same data on every run. The
/// routes answer on any listener (TCP or Unix socket); the sample reaches them over a socket file.
extension Router {
    static let dockerRoutes: [Route] = [
        Route(["GET"], "/v1.43/info", { _ in .json(DockerSample.info, headers: DockerSample.headers) }),
        Route(["GET"], "/v1.43/containers/json", containers),
        Route(["GET"], "/v1.43/containers/:id/json", inspectContainer),
    ]

    /// The running containers; with `all=1` (or `true`) the stopped one too, as in Docker.
    private static func containers(_ request: RouteContext) throws -> Response {
        let all = ["1", "true"].contains(request.query["all"]?.lowercased() ?? "")
        let listed = DockerSample.containers.filter { all || $0.isRunning }
        return .json(.array(listed.map(\.summary)), headers: DockerSample.headers)
    }

    /// One container by full id, id prefix or name (with or without the leading `/`);
    /// 404 `{"message":"No such container: x"}` otherwise, Docker's error body.
    private static func inspectContainer(_ request: RouteContext) throws -> Response {
        let reference = request.parameter("id")
        guard let container = DockerSample.container(matching: reference) else {
            return .json(["message": .string("No such container: \(reference)")], status: 404,
                         headers: DockerSample.headers)
        }
        return .json(container.inspection, headers: DockerSample.headers)
    }
}
