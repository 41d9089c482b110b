
import Glibc

import CLinux
import Posix

/// `echo-server`: the least a server can do on one thread — epoll, read, write the same bytes
/// back. The load generator reads an echoed request line as an answer with the right id, so
/// this measures the generator and the socket path with (almost) no server work.
func runEchoServer(_ options: Options) -> Never {
    let path = options.string("socket")
    let listener = bindUnix(path, .stream, nonBlocking: true)
    guard listen(listener, 128) == 0 else { fail("cannot listen on \(path): \(Errno.current)") }
    let epollFD = clinux_epoll_create()
    var event = epoll_event()
    event.events = EPOLLIN.rawValue
    event.data.fd = listener
    _ = epoll_ctl(epollFD, EPOLL_CTL_ADD, listener, &event)
    var events = [epoll_event](repeating: epoll_event(), count: 128)
    var buffer = [UInt8](repeating: 0, count: 64 << 10)
    while true {
        let count = events.withUnsafeMutableBufferPointer { epoll_wait(epollFD, $0.baseAddress, Int32($0.count), -1) }
        for index in 0..<max(0, Int(count)) {
            let fd = events[index].data.fd
            if fd == listener {
                let client = clinux_accept4(listener)
                guard client >= 0 else { continue }
                var clientEvent = epoll_event()
                clientEvent.events = EPOLLIN.rawValue
                clientEvent.data.fd = client
                _ = epoll_ctl(epollFD, EPOLL_CTL_ADD, client, &clientEvent)
                continue
            }
            let received = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if received <= 0 {
                if received < 0, errno == EAGAIN { continue }
                close(fd)
                continue
            }
            // Requests are small and few in flight: the socket buffer takes them whole, so a
            // blocking-style loop is enough for a baseline.
            var offset = 0
            while offset < received {
                let wrote = buffer.withUnsafeBytes { send(fd, $0.baseAddress! + offset, received - offset, Int32(MSG_NOSIGNAL)) }
                if wrote > 0 { offset += wrote } else if errno != EAGAIN && errno != EINTR { break }
            }
        }
    }
}
