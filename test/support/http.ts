/** The JSON body of a response, loosely typed for assertions. */
export async function bodyOf(res: Response): Promise<any> {
  return res.json();
}
