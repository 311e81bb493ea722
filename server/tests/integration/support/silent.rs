//! A server on loopback that takes every connection and never answers: a model provider or a
//! local model server that hangs (its tasks run on the test's runtime).

use tokio::net::TcpListener;

/// The address of a new server that accepts every connection and never answers.
pub async fn silent_server() -> String {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let uri = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move {
        while let Ok((socket, _)) = listener.accept().await {
            tokio::spawn(async move {
                let _open = socket;
                std::future::pending::<()>().await;
            });
        }
    });
    uri
}
