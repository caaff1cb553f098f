import NIOCore
import NIOHTTP1

/// Answers each request from the route table: head, then the body in pieces, dripped or endless
/// as the route says; every connection closes after one answer.
final class RouteHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let state: ServerState
    private var head: HTTPRequestHead?
    /// The request being answered on this connection, if any.
    private var answering: Int?

    init(state: ServerState) {
        self.state = state
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            self.head = head
        case .body:
            break
        case .end:
            guard let head else { return }
            self.head = nil
            respond(context: context, to: head)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        // The client went away; an answer still being sent ends here (no-op if it had ended).
        if let answering { state.finish(at: answering, clientClosed: true) }
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // TLS handshakes that the client refuses end here; the connection is simply closed.
        context.close(promise: nil)
    }

    private func respond(context: ChannelHandlerContext, to head: HTTPRequestHead) {
        let path = String(head.uri.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
        var headerMap: [String: String] = [:]
        for (name, value) in head.headers { headerMap[name.lowercased()] = value }
        let index = state.record(
            RecordedRequest(
                uri: head.uri,
                host: head.headers.first(name: "host"),
                method: head.method.rawValue,
                headers: headerMap,
                bytesSent: 0,
                clientClosed: false
            )
        )
        answering = index
        let route = state.route(for: path) ?? .status(404, body: "not found\n")

        var headers = HTTPHeaders(route.headers)
        headers.replaceOrAdd(name: "Connection", value: "close")
        switch route.framing {
        case .contentLength:
            let length = route.endless ? route.endlessLimit : route.body.count
            headers.replaceOrAdd(name: "Content-Length", value: String(length))
        case .chunked:
            headers.replaceOrAdd(name: "Transfer-Encoding", value: "chunked")
        }
        let responseHead = HTTPResponseHead(
            version: .http1_1,
            status: HTTPResponseStatus(statusCode: route.status),
            headers: headers
        )
        context.write(wrapOutboundOut(.head(responseHead)), promise: nil)

        var pieces: [[UInt8]] = []
        if let size = route.chunkSize, size > 0 {
            var start = 0
            while start < route.body.count {
                let end = min(start + size, route.body.count)
                pieces.append(Array(route.body[start..<end]))
                start = end
            }
        } else if !route.body.isEmpty {
            pieces = [route.body]
        }
        let sender = BodySender(
            context: NIOLoopBound(context, eventLoop: context.eventLoop),
            handler: NIOLoopBound(self, eventLoop: context.eventLoop),
            state: state,
            index: index,
            pieces: pieces,
            endless: route.endless,
            limit: route.endlessLimit,
            drip: route.dripInterval
        )
        sender.send(piece: 0, sent: 0)
    }

    fileprivate func wrapPart(_ part: HTTPServerResponsePart) -> NIOAny { wrapOutboundOut(part) }
}

/// Sends a route's body piece by piece, waiting for each write (so an endless body follows the
/// client's reading speed), and records the bytes written.
private struct BodySender: Sendable {
    let context: NIOLoopBound<ChannelHandlerContext>
    let handler: NIOLoopBound<RouteHandler>
    let state: ServerState
    let index: Int
    let pieces: [[UInt8]]
    let endless: Bool
    let limit: Int
    let drip: Duration?

    func send(piece: Int, sent: Int) {
        let context = self.context.value
        let done = pieces.isEmpty || (endless ? sent >= limit : piece >= pieces.count)
        if done {
            context.writeAndFlush(handler.value.wrapPart(.end(nil))).whenComplete { [self] result in
                if case .failure = result {
                    state.finish(at: index, clientClosed: true)
                } else {
                    state.finish(at: index, clientClosed: false)
                }
                self.context.value.close(promise: nil)
            }
            return
        }
        let step = {
            let context = self.context.value
            guard context.channel.isActive else {
                state.finish(at: index, clientClosed: true)
                return
            }
            var bytes = pieces[piece % pieces.count]
            if endless, sent + bytes.count > limit { bytes = Array(bytes.prefix(limit - sent)) }
            let buffer = context.channel.allocator.buffer(bytes: bytes)
            context.writeAndFlush(handler.value.wrapPart(.body(.byteBuffer(buffer)))).whenComplete { [self] result in
                switch result {
                case .success:
                    state.addBytesSent(bytes.count, at: index)
                    send(piece: piece + 1, sent: sent + bytes.count)
                case .failure:
                    state.finish(at: index, clientClosed: true)
                    self.context.value.close(promise: nil)
                }
            }
        }
        if let drip {
            let (seconds, attoseconds) = drip.components
            let nanoseconds = seconds * 1_000_000_000 + attoseconds / 1_000_000_000
            context.eventLoop.scheduleTask(in: .nanoseconds(nanoseconds)) { step() }
        } else {
            step()
        }
    }
}
