//! The safetensors format, read: 8 bytes (a little-endian u64, the header's length), a JSON
//! header naming each tensor's `dtype`, `shape` and `data_offsets` (begin, end) into the byte
//! buffer that follows, then that buffer. Only what this crate needs: F32 tensors, copied out
//! and checked against the shape the caller expects.

use serde_json::{Map, Value};

pub(crate) struct SafeTensors {
    bytes: Vec<u8>,
    header: Map<String, Value>,
    data_start: usize,
}

impl SafeTensors {
    pub(crate) fn parse(bytes: Vec<u8>) -> Result<SafeTensors, String> {
        let len_bytes: [u8; 8] = bytes
            .get(..8)
            .and_then(|b| b.try_into().ok())
            .ok_or("shorter than the 8 bytes of a safetensors header length")?;
        let header_len = usize::try_from(u64::from_le_bytes(len_bytes))
            .map_err(|_| "the header length does not fit in memory")?;
        let data_start = header_len
            .checked_add(8)
            .filter(|&end| end <= bytes.len())
            .ok_or("the header length runs past the end of the file")?;
        let header: Value = serde_json::from_slice(&bytes[8..data_start])
            .map_err(|err| format!("the header is not JSON: {err}"))?;
        let Value::Object(header) = header else {
            return Err("the header is not a JSON object".into());
        };
        Ok(SafeTensors {
            bytes,
            header,
            data_start,
        })
    }

    /// The tensor `name`, which must be F32 of exactly `shape`, row-major.
    pub(crate) fn f32(&self, name: &str, shape: &[usize]) -> Result<Vec<f32>, String> {
        let info = self
            .header
            .get(name)
            .ok_or_else(|| format!("no tensor `{name}`"))?;
        let dtype = info.get("dtype").and_then(Value::as_str);
        if dtype != Some("F32") {
            return Err(format!("`{name}` has dtype {dtype:?}, not F32"));
        }
        let got_shape: Option<Vec<usize>> =
            info.get("shape")
                .and_then(Value::as_array)
                .and_then(|dims| {
                    dims.iter()
                        .map(|d| d.as_u64().and_then(|d| usize::try_from(d).ok()))
                        .collect()
                });
        if got_shape.as_deref() != Some(shape) {
            return Err(format!(
                "`{name}` has shape {got_shape:?}, expected {shape:?}"
            ));
        }
        let offsets: Option<Vec<usize>> = info
            .get("data_offsets")
            .and_then(Value::as_array)
            .and_then(|o| {
                o.iter()
                    .map(|d| d.as_u64().and_then(|d| usize::try_from(d).ok()))
                    .collect()
            });
        let (begin, end) = match offsets.as_deref() {
            Some(&[begin, end]) if begin <= end => (begin, end),
            _ => return Err(format!("`{name}` has no valid `data_offsets`")),
        };
        let count: usize = shape.iter().product();
        if end - begin != count * 4 {
            return Err(format!(
                "`{name}` holds {} bytes, but {count} f32 values need {}",
                end - begin,
                count * 4
            ));
        }
        let data = self
            .data_start
            .checked_add(end)
            .filter(|&e| e <= self.bytes.len())
            .map(|e| &self.bytes[self.data_start + begin..e])
            .ok_or_else(|| format!("`{name}` runs past the end of the file"))?;
        Ok(data
            .chunks_exact(4)
            .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(header: &str, data: &[u8]) -> Vec<u8> {
        let mut bytes = (header.len() as u64).to_le_bytes().to_vec();
        bytes.extend_from_slice(header.as_bytes());
        bytes.extend_from_slice(data);
        bytes
    }

    #[test]
    fn reads_an_f32_tensor() {
        let data: Vec<u8> = [1.0f32, -2.5, 3.0, 0.25]
            .iter()
            .flat_map(|v| v.to_le_bytes())
            .collect();
        let st = SafeTensors::parse(file(
            r#"{"w":{"dtype":"F32","shape":[2,2],"data_offsets":[0,16]},"__metadata__":{}}"#,
            &data,
        ))
        .unwrap();
        assert_eq!(st.f32("w", &[2, 2]).unwrap(), [1.0, -2.5, 3.0, 0.25]);
        assert!(st.f32("w", &[4]).unwrap_err().contains("shape"));
        assert!(st.f32("v", &[4]).unwrap_err().contains("no tensor"));
    }

    #[test]
    fn rejects_what_is_not_safetensors() {
        assert!(SafeTensors::parse(vec![1, 2]).is_err());
        assert!(SafeTensors::parse(file("[1]", &[])).is_err());
        assert!(SafeTensors::parse(file("{", &[])).is_err());
        let mut huge = u64::MAX.to_le_bytes().to_vec();
        huge.extend_from_slice(b"{}");
        assert!(SafeTensors::parse(huge).is_err());
        let st = SafeTensors::parse(file(
            r#"{"w":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}}"#,
            &[0; 4],
        ))
        .unwrap();
        assert!(st.f32("w", &[2]).unwrap_err().contains("past the end"));
        let st = SafeTensors::parse(file(
            r#"{"w":{"dtype":"F16","shape":[2],"data_offsets":[0,4]}}"#,
            &[0; 4],
        ))
        .unwrap();
        assert!(st.f32("w", &[2]).unwrap_err().contains("dtype"));
    }
}
