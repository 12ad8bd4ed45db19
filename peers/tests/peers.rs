//! Every peer: present for every function and format, the right length
//! contract, and the documented formulas.

use actlut::Function;
use actlut_peers::accuracy::{compare, run_all};
use actlut_peers::{naive, Format, Kernel, Peer, FUNCTIONS};

#[test]
fn every_function_and_format_has_the_same_peers_in_order() {
    for function in FUNCTIONS {
        for format in Format::ALL {
            let names: Vec<_> = Peer::all(function, format).iter().map(|p| p.name).collect();
            let mut expected = vec!["actlut_computed", "naive", "approx_simd", "candle"];
            if function == Function::Gelu {
                expected.push("candle_gelu_tanh");
            }
            expected.push("lazy_table");
            assert_eq!(names, expected);
            for peer in Peer::all(function, format) {
                assert_eq!(peer.kernel.format(), format, "{}", peer.name);
            }
        }
    }
    assert!(Peer::all(Function::Tanh, Format::F16).is_empty());
}

#[test]
fn actlut_computed_path_equals_its_table_on_every_input() {
    for function in FUNCTIONS {
        for format in Format::ALL {
            let peer = Peer::all(function, format)[0];
            let c = compare(format, format.table(function), &run_all(peer.kernel));
            assert_eq!(c.wrong, 0, "{}_{}", function.name(), format.name());
            let lookup = run_all(Kernel::actlut(function, format));
            assert_eq!(&lookup[..], &format.table(function)[..]);
        }
    }
}

#[test]
fn naive_gelu_f16_differs_from_the_table_at_333_inputs_as_the_readme_says() {
    let c = compare(
        Format::F16,
        Format::F16.table(Function::Gelu),
        &run_all(Kernel::F16(naive::gelu_f16)),
    );
    assert_eq!(c.wrong, 333);
}

#[test]
fn every_peer_panics_on_slices_of_different_lengths() {
    for function in FUNCTIONS {
        for format in Format::ALL {
            for peer in Peer::all(function, format) {
                let result = std::panic::catch_unwind(|| {
                    peer.kernel.map_bits(&[0; 3], &mut [0; 2]);
                });
                assert!(result.is_err(), "{} did not panic", peer.name);
            }
        }
    }
}

#[test]
fn every_peer_is_close_to_the_function_at_ordinary_inputs() {
    // Loose: 2% relative plus 1/128 absolute (a bf16 ulp at 1) covers the
    // tanh-form GELUs and candle's rounding in the format's own arithmetic,
    // where `1 + tanh` cancels at negative inputs.
    for function in FUNCTIONS {
        for format in Format::ALL {
            let xs: Vec<u16> = [-3.0f32, -1.0, -0.25, 0.0, 0.5, 1.0, 2.5]
                .iter()
                .map(|x| format.from_f32(*x))
                .collect();
            let table = format.table(function);
            for peer in Peer::all(function, format) {
                let mut ys = vec![0; xs.len()];
                peer.kernel.map_bits(&xs, &mut ys);
                for (x, y) in xs.iter().zip(&ys) {
                    let (got, exact) = (format.to_f32(*y), format.to_f32(table[usize::from(*x)]));
                    assert!(
                        (got - exact).abs() <= 0.02 * exact.abs() + 1.0 / 128.0,
                        "{} {}_{} at {}: {got} against {exact}",
                        peer.name,
                        function.name(),
                        format.name(),
                        format.to_f32(*x)
                    );
                }
            }
        }
    }
}
